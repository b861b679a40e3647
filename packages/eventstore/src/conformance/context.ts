import { randomUUID } from 'node:crypto';
import { createStoreContext, type StoreContext, type StoreHarness } from '@parcel-logistics/conformance';
import type { EventStore, EventToAppend, RecordedEvent, Subscription } from '../port.ts';

export type EventStoreHarness = StoreHarness<EventStore>;

/** Per-test state. Stream and subscription names are unique per test, so a shared database works too. */
export interface Context extends StoreContext<EventStore> {
  stream(label: string): string;
}

export function createContext(make: () => Promise<EventStoreHarness>) {
  const store = createStoreContext(make, () => `conf${randomUUID().slice(0, 8)}`);
  const context: Context = Object.assign(store.context, {
    stream: (label: string) => `${store.context.prefix}-${label}`,
  });
  return { ...store, context };
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
