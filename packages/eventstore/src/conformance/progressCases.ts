import { expect, it } from '@jest/globals';
import { events, type Context } from './context.ts';

/** `progress`: the log's head and the stored checkpoints asked for (the subscription-lag metric reads it). */
export function progressCases(ctx: Context): void {
  it('progress: the head follows appends; a stored checkpoint is reported, an id without one is left out', async () => {
    const progress = ctx.store.progress!.bind(ctx.store);
    expect(typeof progress).toBe('function');
    const subscriptionId = `${ctx.prefix}-sub`;
    const never = `${ctx.prefix}-never`;
    const before = await progress([subscriptionId, never]);
    expect(before.checkpoints.size).toBe(0);
    const appended = await ctx.store.append({
      streamName: ctx.stream('a'),
      expectedRevision: 'no_stream',
      events: events(3),
    });
    const after = await progress([]);
    expect(after.head).toBeGreaterThanOrEqual(appended.lastGlobalPosition);
    expect(after.head).toBeGreaterThan(before.head);

    const subscription = ctx.store.subscribeToAll({
      subscriptionId,
      pollIntervalMs: 20,
      handler: async () => undefined,
    });
    await subscription.caughtUp();
    await subscription.stop(); // saves the checkpoint
    const saved = await progress([subscriptionId, never]);
    expect([...saved.checkpoints.keys()]).toEqual([subscriptionId]);
    expect(saved.checkpoints.get(subscriptionId)).toBeGreaterThanOrEqual(appended.lastGlobalPosition);
    expect(saved.checkpoints.get(subscriptionId)).toBeLessThanOrEqual(saved.head);
  });
}
