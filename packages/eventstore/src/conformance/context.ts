import { randomUUID } from 'node:crypto';
import type { EventStore, EventToAppend, RecordedEvent, Subscription } from '../port.ts';

export interface EventStoreHarness {
  store: EventStore;
  /** Opens the same data again after `store.close()`; omitted for stores that do not persist. */
  reopen?: () => Promise<EventStore>;
  /** Closes the store (close is idempotent) and removes its data. */
  cleanup: () => Promise<void>;
}

/** Per-test state. Stream and subscription names are unique per test, so a shared database works too. */
export interface Context {
  readonly harness: EventStoreHarness;
  readonly store: EventStore;
  readonly prefix: string;
  stream(label: string): string;
}

export function createContext(make: () => Promise<EventStoreHarness>) {
  let current: { harness: EventStoreHarness; prefix: string } | undefined;
  const get = () => {
    if (!current) throw new Error('no store: the conformance context is used outside a test');
    return current;
  };
  const context: Context = {
    get harness() {
      return get().harness;
    },
    get store() {
      return get().harness.store;
    },
    get prefix() {
      return get().prefix;
    },
    stream: (label) => `${get().prefix}-${label}`,
  };
  return {
    context,
    async setUp() {
      current = { harness: await make(), prefix: `conf${randomUUID().slice(0, 8)}` };
    },
    async tearDown() {
      const harness = current?.harness;
      current = undefined;
      await harness?.cleanup();
    },
  };
}

export const event = (
  type = 'Tested.v1',
  data: unknown = { n: 1 },
  metadata?: Record<string, unknown>,
): EventToAppend => ({
  id: randomUUID(),
  type,
  data,
  ...(metadata ? { metadata } : {}),
});

export const events = (count: number, type = 'Tested.v1'): EventToAppend[] =>
  Array.from({ length: count }, (_, n) => event(type, { n }));

export const rejection = (promise: Promise<unknown>): Promise<unknown> =>
  promise.then(
    () => {
      throw new Error('expected a rejection');
    },
    (error: unknown) => error,
  );

export const delay = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

export async function waitFor(condition: () => boolean, timeoutMs = 3000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`condition not met within ${timeoutMs} ms`);
    await delay(5);
  }
}

export interface Recorder {
  subscription: Subscription;
  /** Events of this test's streams, in the order handled. */
  seen: RecordedEvent[];
}

/** Subscribes and records the events of this test's streams; `before` runs first and may throw. */
export function record(
  store: EventStore,
  prefix: string,
  options: {
    subscriptionId?: string;
    pollIntervalMs?: number;
    before?: (e: RecordedEvent) => Promise<void> | void;
  } = {},
): Recorder {
  const seen: RecordedEvent[] = [];
  const subscription = store.subscribeToAll({
    subscriptionId: options.subscriptionId ?? `${prefix}-sub`,
    ...(options.pollIntervalMs === undefined ? {} : { pollIntervalMs: options.pollIntervalMs }),
    handler: async (e) => {
      await options.before?.(e);
      if (e.streamName.startsWith(prefix)) seen.push(e);
    },
  });
  return { subscription, seen };
}
