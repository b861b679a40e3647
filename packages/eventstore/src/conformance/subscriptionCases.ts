import { expect, it } from '@jest/globals';
import type { CheckpointStore, RecordedEvent } from '../port.ts';
import { delay, events, record, waitFor, type Context } from './context.ts';

export function subscriptionCases(ctx: Context): void {
  const appendTo = (label: string, count: number) =>
    ctx.store.append({ streamName: ctx.stream(label), expectedRevision: 'any', events: events(count) });
  const ours = async () =>
    (await ctx.store.readAll({ limit: 1_000_000 })).filter((e) => e.streamName.startsWith(ctx.prefix));
  const ids = (list: RecordedEvent[]) => list.map((e) => e.id);

  it('delivers stored and then new events once each, in global order', async () => {
    await appendTo('a', 3);
    await appendTo('b', 2);
    const { subscription, seen } = record(ctx.store, ctx.prefix, { pollIntervalMs: 20 });
    try {
      await subscription.caughtUp();
      expect(seen).toHaveLength(5);
      await appendTo('a', 2);
      await ctx.store.appendMany([
        { streamName: ctx.stream('c'), expectedRevision: 'no_stream', events: events(2) },
        { streamName: ctx.stream('b'), expectedRevision: 1, events: events(1) },
      ]);
      await subscription.caughtUp();
      expect(ids(seen)).toEqual(ids(await ours()));
      expect(seen).toHaveLength(10);
    } finally {
      await subscription.stop();
    }
  });

  it('handleBatch: pages in global order, each event once; a failing page is retried whole and the checkpoint stays before it', async () => {
    await appendTo('a', 3);
    await appendTo('b', 2);
    const pages: RecordedEvent[][] = [];
    const failedPages: string[][] = [];
    const subscriptionId = `${ctx.prefix}-pages`;
    const start = () =>
      ctx.store.subscribeToAll({
        subscriptionId,
        pollIntervalMs: 20,
        handleBatch: async (page) => {
          const mine = page.filter((e) => e.streamName.startsWith(ctx.prefix));
          if (mine.length > 0 && failedPages.length === 0) {
            failedPages.push(ids(mine));
            throw new Error('page handler fails once');
          }
          if (mine.length > 0) pages.push(mine);
        },
      });
    const first = start();
    try {
      await first.caughtUp();
      await appendTo('c', 2);
      await first.caughtUp();
    } finally {
      await first.stop();
    }
    const seen = pages.flat();
    expect(ids(seen)).toEqual(ids(await ours()));
    expect(pages.length).toBeLessThan(seen.length); // delivered by pages, not event by event
    expect(ids(pages[0]!).slice(0, failedPages[0]!.length)).toEqual(failedPages[0]); // the failed page came again, whole

    const second = start();
    try {
      await second.caughtUp();
      expect(pages.flat()).toHaveLength(7); // resumed after its checkpoint: nothing again
    } finally {
      await second.stop();
    }
  });

  it('streamPrefixes: only the named streams reach a handler, event by event or page by page; the checkpoint passes the others', async () => {
    await appendTo('kept-1', 2);
    await appendTo('other', 3);
    await appendTo('kept-2', 1);
    const kept = (await ours()).filter((e) => e.streamName.startsWith(ctx.stream('kept-')));
    const reached: RecordedEvent[] = [];
    const pages: RecordedEvent[][] = [];
    const settings = { pollIntervalMs: 20, streamPrefixes: [ctx.stream('kept-')] };
    const start = () => [
      ctx.store.subscribeToAll({
        ...settings,
        subscriptionId: `${ctx.prefix}-filtered`,
        handler: async (e) => void reached.push(e),
      }),
      ctx.store.subscribeToAll({
        ...settings,
        subscriptionId: `${ctx.prefix}-filtered-pages`,
        handleBatch: async (page) => void pages.push([...page]),
      }),
    ];
    const first = start();
    try {
      await Promise.all(first.map((s) => s.caughtUp()));
      expect(ids(reached)).toEqual(ids(kept));
      expect(ids(pages.flat())).toEqual(ids(kept));
    } finally {
      await Promise.all(first.map((s) => s.stop()));
    }
    // Only other streams after the checkpoint: restarted, neither handler is called again.
    await appendTo('other', 2);
    const second = start();
    try {
      await Promise.all(second.map((s) => s.caughtUp()));
      await appendTo('kept-1', 1);
      await Promise.all(second.map((s) => s.caughtUp()));
    } finally {
      await Promise.all(second.map((s) => s.stop()));
    }
    const all = (await ours()).filter((e) => e.streamName.startsWith(ctx.stream('kept-')));
    expect(ids(reached)).toEqual(ids(all));
    expect(ids(pages.flat())).toEqual(ids(all));
  });

  it('wakes at once for an append made through the same store object', async () => {
    const { subscription, seen } = record(ctx.store, ctx.prefix, { pollIntervalMs: 60_000 });
    try {
      await subscription.caughtUp();
      await delay(20);
      await appendTo('live', 1);
      await waitFor(() => seen.length === 1, 1000);
    } finally {
      await subscription.stop();
    }
  });

  it('resumes after its checkpoint when re-created: no redelivery, no gap', async () => {
    await appendTo('a', 4);
    const first = record(ctx.store, ctx.prefix);
    await first.subscription.caughtUp();
    await first.subscription.stop();
    await appendTo('b', 3);
    await appendTo('a', 1);

    const second = record(ctx.store, ctx.prefix);
    try {
      await second.subscription.caughtUp();
      expect(ids([...first.seen, ...second.seen])).toEqual(ids(await ours()));
      expect(second.seen).toHaveLength(4);
    } finally {
      await second.subscription.stop();
    }
  });

  it('checkpoints of its own: starts from the event store checkpoint until it saved one, then resumes from and saves to its own store alone', async () => {
    await appendTo('a', 2);
    const first = record(ctx.store, ctx.prefix);
    await first.subscription.caughtUp();
    await first.subscription.stop();
    const inStore = async () =>
      (await ctx.store.progress?.([`${ctx.prefix}-sub`]))?.checkpoints.get(`${ctx.prefix}-sub`);
    const storeCheckpoint = await inStore();

    const kept = new Map<string, number>();
    const checkpoints: CheckpointStore = {
      load: async (id) => kept.get(id),
      save: async (id, position) => void kept.set(id, position),
    };
    const run = async () => {
      const seen: RecordedEvent[] = [];
      const subscription = ctx.store.subscribeToAll({
        subscriptionId: `${ctx.prefix}-sub`,
        checkpoints,
        handler: async (e) => {
          if (e.streamName.startsWith(ctx.prefix)) seen.push(e);
        },
      });
      try {
        await subscription.caughtUp();
      } finally {
        await subscription.stop();
      }
      return seen;
    };
    await appendTo('b', 1);
    // Nothing kept of its own yet: it resumes after the event store's checkpoint.
    const all = await ours();
    expect(ids(await run())).toEqual(ids(all.slice(2)));
    expect(kept.get(`${ctx.prefix}-sub`)).toBeGreaterThanOrEqual(all[2]!.globalPosition);
    // Its own store moved back (a projection whose last writes a crash lost): those events come again.
    kept.set(`${ctx.prefix}-sub`, all[0]!.globalPosition);
    expect(ids(await run())).toEqual(ids(all.slice(1)));
    // The event store's checkpoint of that id stayed where the first subscription left it.
    expect(await inStore()).toBe(storeCheckpoint);
  });

  it('retries a failing handler with the same event and never skips it', async () => {
    await appendTo('s', 3);
    const [, poisoned] = await ctx.store.readStream(ctx.stream('s'));
    let failing = true;
    let attempts = 0;
    const before = (e: RecordedEvent) => {
      if (e.id !== poisoned!.id) return;
      attempts++;
      if (failing) throw new Error('handler down');
    };
    const first = record(ctx.store, ctx.prefix, { before });
    await waitFor(() => attempts >= 3);
    await first.subscription.stop();
    expect(first.seen).toHaveLength(1);

    const second = record(ctx.store, ctx.prefix, { before });
    try {
      await waitFor(() => attempts >= 4);
      expect(second.seen).toEqual([]);
      failing = false;
      await second.subscription.caughtUp();
      expect(ids([...first.seen, ...second.seen])).toEqual(ids(await ours()));
    } finally {
      await second.subscription.stop();
    }
  });

  it('caughtUp resolves only when every event committed before the call is handled', async () => {
    await appendTo('a', 20);
    const { subscription, seen } = record(ctx.store, ctx.prefix, { before: () => delay(2) });
    try {
      await subscription.caughtUp();
      expect(seen).toHaveLength(20);
      await subscription.caughtUp();
      await appendTo('b', 5);
      await subscription.caughtUp();
      expect(ids(seen)).toEqual(ids(await ours()));
    } finally {
      await subscription.stop();
    }
  });

  it('stop waits for the handler in flight and delivers nothing afterwards', async () => {
    await appendTo('a', 5);
    let inFlight = 0;
    let handled = 0;
    const { subscription } = record(ctx.store, ctx.prefix, {
      before: async () => {
        inFlight++;
        await delay(30);
        inFlight--;
        handled++;
      },
    });
    await waitFor(() => inFlight === 1);
    await subscription.stop();
    expect(inFlight).toBe(0);
    const after = handled;
    await appendTo('a', 2);
    await delay(100);
    expect(handled).toBe(after);
  });
}
