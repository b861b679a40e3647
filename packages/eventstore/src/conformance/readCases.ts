import { expect, it } from '@jest/globals';
import { itAcrossReopen, pingAndCloseCase } from '@parcel-logistics/conformance';
import type { RecordedEvent } from '../port.ts';
import { event, events, record, type Context } from './context.ts';

export function readCases(ctx: Context): void {
  it('pages the global log: afterPosition is exclusive, limit caps a page', async () => {
    const appended = events(7);
    for (const [i, e] of appended.entries()) {
      await ctx.store.append({ streamName: ctx.stream(`s${i % 3}`), expectedRevision: 'any', events: [e] });
    }
    const [first] = await ctx.store.readStream(ctx.stream('s0'));
    const pages: RecordedEvent[][] = [];
    let after = first!.globalPosition - 1;
    for (;;) {
      const page = await ctx.store.readAll({ afterPosition: after, limit: 3 });
      if (page.length === 0) break;
      expect(page.length).toBeLessThanOrEqual(3);
      expect(page[0]!.globalPosition).toBeGreaterThan(after);
      pages.push(page);
      after = page[page.length - 1]!.globalPosition;
    }
    const read = pages.flat().filter((e) => e.streamName.startsWith(ctx.prefix));
    expect(read.map((e) => e.id)).toEqual(appended.map((e) => e.id));
    expect(pages.slice(0, 2).map((p) => p.length)).toEqual([3, 3]);
    expect(await ctx.store.readAll({ afterPosition: after, limit: 10 })).toEqual([]);
  });

  pingAndCloseCase(ctx);

  itAcrossReopen('keeps events, revisions and checkpoints across a reopen', ctx, async (reopen) => {
    const name = ctx.stream('durable');
    const appended = [event('A.v1', { text: 'kept' }), event('B.v1')];
    await ctx.store.append({ streamName: name, expectedRevision: 'no_stream', events: appended });
    const first = record(ctx.store, ctx.prefix);
    await first.subscription.caughtUp();
    await first.subscription.stop();
    const before = await ctx.store.readStream(name);
    await ctx.store.close();

    const reopened = await reopen();
    expect(await reopened.readStream(name)).toEqual(before);
    await expect(reopened.append({ streamName: name, expectedRevision: 0, events: [event()] })).rejects.toMatchObject({
      actual: 1,
    });
    await reopened.append({ streamName: name, expectedRevision: 1, events: [event('C.v1')] });
    const second = record(reopened, ctx.prefix);
    await second.subscription.caughtUp();
    await second.subscription.stop();
    expect(second.seen.map((e) => e.type)).toEqual(['C.v1']);
  });
}
