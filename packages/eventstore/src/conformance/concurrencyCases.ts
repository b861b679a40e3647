import { expect, it } from '@jest/globals';
import { WrongExpectedRevisionError, type ExpectedRevision } from '../port.ts';
import { events, rejection, type Context } from './context.ts';

const expectations: [label: string, existing: number, expected: ExpectedRevision, conflictActual: number | null][] = [
  ['no_stream on a new stream', 0, 'no_stream', null],
  ['no_stream on an existing stream', 2, 'no_stream', 1],
  ['stream_exists on a new stream', 0, 'stream_exists', -1],
  ['stream_exists on an existing stream', 2, 'stream_exists', null],
  ['any on a new stream', 0, 'any', null],
  ['any on an existing stream', 2, 'any', null],
  ['the exact last revision', 3, 2, null],
  ['a stale revision', 3, 1, 2],
  ['a revision ahead of the stream', 2, 5, 1],
  ['a revision on a new stream', 0, 0, -1],
];

export function concurrencyCases(ctx: Context): void {
  it.each(expectations)('expected revision: %s', async (_label, existing, expected, conflictActual) => {
    const name = ctx.stream('s');
    if (existing > 0) await ctx.store.append({ streamName: name, expectedRevision: 'any', events: events(existing) });
    const attempt = ctx.store.append({ streamName: name, expectedRevision: expected, events: events(2) });
    if (conflictActual === null) {
      expect((await attempt).nextExpectedRevision).toBe(existing + 1);
      expect(await ctx.store.readStream(name)).toHaveLength(existing + 2);
    } else {
      const error = await rejection(attempt);
      expect(error).toBeInstanceOf(WrongExpectedRevisionError);
      expect(error).toMatchObject({ streamName: name, expected, actual: conflictActual });
      expect(await ctx.store.readStream(name)).toHaveLength(existing);
    }
  });

  it.each<[string, ExpectedRevision, number]>([
    ['no_stream', 'no_stream', 0],
    ['an exact revision', 0, 1],
  ])('of 50 concurrent appends expecting %s, exactly one wins', async (_label, expected, existing) => {
    const name = ctx.stream('contended');
    if (existing > 0) await ctx.store.append({ streamName: name, expectedRevision: 'any', events: events(existing) });
    const outcomes = await Promise.allSettled(
      Array.from({ length: 50 }, () =>
        ctx.store.append({ streamName: name, expectedRevision: expected, events: events(1) }),
      ),
    );
    const losers = outcomes.filter((o) => o.status === 'rejected');
    expect(losers).toHaveLength(49);
    for (const loser of losers) {
      expect(loser.reason).toBeInstanceOf(WrongExpectedRevisionError);
      expect(loser.reason).toMatchObject({ actual: existing });
    }
    expect(await ctx.store.readStream(name)).toHaveLength(existing + 1);
  });

  it('independent concurrent appends commit while a conflicting one rejects alone', async () => {
    const taken = ctx.stream('taken');
    await ctx.store.append({ streamName: taken, expectedRevision: 'no_stream', events: events(1) });
    const names = Array.from({ length: 20 }, (_, i) => (i === 7 ? taken : ctx.stream(`free-${i}`)));
    const outcomes = await Promise.allSettled(
      names.map((streamName) => ctx.store.append({ streamName, expectedRevision: 'no_stream', events: events(1) })),
    );
    expect(outcomes.map((o) => o.status)).toEqual(names.map((n) => (n === taken ? 'rejected' : 'fulfilled')));
    for (const n of names) expect(await ctx.store.readStream(n)).toHaveLength(1);
  });

  it('appends committed together keep their own outcomes: an appendMany refused half-way leaves nothing, an exact retry in flight with its original stores once', async () => {
    const taken = ctx.stream('taken-many');
    await ctx.store.append({ streamName: taken, expectedRevision: 'no_stream', events: events(1) });
    const partial = ctx.stream('partial');
    const retried = { streamName: ctx.stream('retried'), expectedRevision: 'no_stream' as const, events: events(2) };
    const neighbours = Array.from({ length: 10 }, (_, i) => ctx.stream(`neighbour-${i}`));
    // The first append may go out alone; those queued behind it commit as one group where the store groups.
    const [, refused, original, retry, ...rest] = await Promise.allSettled([
      ctx.store.append({ streamName: ctx.stream('first'), expectedRevision: 'no_stream', events: events(1) }),
      ctx.store.appendMany([
        { streamName: partial, expectedRevision: 'no_stream', events: events(1) },
        { streamName: taken, expectedRevision: 'no_stream', events: events(1) },
      ]),
      ctx.store.append(retried),
      ctx.store.append(retried),
      ...neighbours.map((streamName) =>
        ctx.store.append({ streamName, expectedRevision: 'no_stream', events: events(1) }),
      ),
    ]);
    expect(refused).toMatchObject({ status: 'rejected', reason: expect.any(WrongExpectedRevisionError) });
    expect(await ctx.store.readStream(partial)).toHaveLength(0);
    expect(await ctx.store.readStream(taken)).toHaveLength(1);
    expect(original).toMatchObject({ status: 'fulfilled', value: { nextExpectedRevision: 1 } });
    expect(retry).toEqual(original);
    expect(await ctx.store.readStream(retried.streamName)).toHaveLength(2);
    expect(rest.map((o) => o.status)).toEqual(neighbours.map(() => 'fulfilled'));
  });
}
