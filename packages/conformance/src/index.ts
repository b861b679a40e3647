/**
 * What the ports' conformance suites share (event store, projections, webhooks, accounts): the
 * store an adapter hands a test, and its life per test.
 */
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';

/** A store as an adapter hands it to a conformance suite. */
export interface StoreHarness<S> {
  store: S;
  /** Opens the same data again after `store.close()`; omitted for stores that do not persist. */
  reopen?: () => Promise<S>;
  /** Closes the store (close is idempotent) and removes its data. */
  cleanup: () => Promise<void>;
}

/**
 * For suites whose tests open their store themselves: `start()` opens it with `open`, and what
 * it opened is cleaned up after the test. Call inside the suite's describe.
 */
export function openPerTest<F extends { cleanup: () => Promise<void> }>(open: () => Promise<F>): () => Promise<F> {
  let fixture: F | undefined;
  afterEach(async () => {
    await fixture?.cleanup();
    fixture = undefined;
  });
  return async () => (fixture = await open());
}

/** The current test's harness and store, and a prefix no other test has (so a shared database works too). */
export interface StoreContext<S> {
  readonly harness: StoreHarness<S>;
  readonly store: S;
  readonly prefix: string;
}

/**
 * A context whose harness `make` opens in `setUp` (before each test, with a prefix from
 * `prefixOf`) and `tearDown` cleans up (after it); read outside a test, it throws.
 */
export function createStoreContext<S>(make: () => Promise<StoreHarness<S>>, prefixOf: () => string) {
  let current: { harness: StoreHarness<S>; prefix: string } | undefined;
  const get = () => {
    if (!current) throw new Error('no store: the conformance context is used outside a test');
    return current;
  };
  const context: StoreContext<S> = {
    get harness() {
      return get().harness;
    },
    get store() {
      return get().harness.store;
    },
    get prefix() {
      return get().prefix;
    },
  };
  return {
    context,
    async setUp() {
      current = { harness: await make(), prefix: prefixOf() };
    },
    async tearDown() {
      const harness = current?.harness;
      current = undefined;
      await harness?.cleanup();
    },
  };
}

/**
 * A port's suite: `title` with the store of `context` opened before each test and cleaned up
 * after it, and each of `cases` a describe block of its own.
 */
export function describeConformance<C>(
  title: string,
  { context, setUp, tearDown }: { context: C; setUp: () => Promise<void>; tearDown: () => Promise<void> },
  cases: Record<string, (context: C) => void>,
): void {
  describe(title, () => {
    beforeEach(setUp);
    afterEach(tearDown);
    for (const [name, run] of Object.entries(cases)) describe(name, () => run(context));
  });
}

/** A case every port's suite holds: the store answers ping, and close may be called twice. */
export function pingAndCloseCase(context: { readonly store: { ping(): Promise<void>; close(): Promise<void> } }): void {
  it('answers ping and closes idempotently', async () => {
    await expect(context.store.ping()).resolves.toBeUndefined();
    await context.store.close();
    await expect(context.store.close()).resolves.toBeUndefined();
  });
}

/**
 * A case for stores whose data outlives `close` (their harness can reopen it); for one that cannot,
 * the case passes untried. `run` opens the data again with `reopen`; what it opened is closed after it.
 */
export function itAcrossReopen<S extends { close(): Promise<void> }>(
  title: string,
  context: { readonly harness: StoreHarness<S> },
  run: (reopen: () => Promise<S>) => Promise<void>,
): void {
  it(title, async () => {
    const { reopen } = context.harness;
    if (!reopen) return;
    const opened: S[] = [];
    try {
      await run(async () => {
        const store = await reopen();
        opened.push(store);
        return store;
      });
    } finally {
      for (const store of opened) await store.close();
    }
  });
}
