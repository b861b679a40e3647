import { expect, it } from '@jest/globals';
import { WrongExpectedRevisionError } from '../port.ts';
import { event, events, rejection, type Context } from './context.ts';

export function appendCases(ctx: Context): void {
  it('appends and reads back events with ids, types, data, metadata and revisions from 0', async () => {
    const name = ctx.stream('parcel');
    const appended = [
      event('ParcelRegistered.v1', { weight: 1.5, tags: ['a'] }, { correlationId: 'c-1' }),
      event('LabelGenerated.v1', null),
      event(),
    ];
    const result = await ctx.store.append({ streamName: name, expectedRevision: 'no_stream', events: appended });
    const read = await ctx.store.readStream(name);

    expect(read.map((e) => [e.id, e.streamName, e.type, e.revision, e.data, e.metadata])).toEqual([
      [appended[0]!.id, name, 'ParcelRegistered.v1', 0, { weight: 1.5, tags: ['a'] }, { correlationId: 'c-1' }],
      [appended[1]!.id, name, 'LabelGenerated.v1', 1, null, {}],
      [appended[2]!.id, name, 'Tested.v1', 2, { n: 1 }, {}],
    ]);
    expect(result).toEqual({ streamName: name, nextExpectedRevision: 2, lastGlobalPosition: read[2]!.globalPosition });
    for (const e of read) expect(new Date(e.recordedAt).toISOString()).toBe(e.recordedAt);
  });

  it('assigns strictly increasing global positions across streams, from 1', async () => {
    for (const label of ['a', 'b', 'a', 'c']) {
      await ctx.store.append({ streamName: ctx.stream(label), expectedRevision: 'any', events: events(2) });
    }
    const positions = (await ctx.store.readAll({ limit: 1_000_000 }))
      .filter((e) => e.streamName.startsWith(ctx.prefix))
      .map((e) => e.globalPosition);
    expect(positions).toHaveLength(8);
    expect(positions[0]).toBeGreaterThanOrEqual(1);
    positions.slice(1).forEach((p, i) => expect(p).toBeGreaterThan(positions[i]!));
  });

  it('reads a stream from a revision; an unknown stream reads as empty', async () => {
    const name = ctx.stream('s');
    await ctx.store.append({ streamName: name, expectedRevision: 'no_stream', events: events(4) });
    expect((await ctx.store.readStream(name, { fromRevision: 2 })).map((e) => e.revision)).toEqual([2, 3]);
    expect(await ctx.store.readStream(ctx.stream('unknown'))).toEqual([]);
  });

  it('appendMany commits every request, in order, and answers one result per request', async () => {
    const [a, b] = [ctx.stream('a'), ctx.stream('b')];
    const results = await ctx.store.appendMany([
      { streamName: a, expectedRevision: 'no_stream', events: events(2) },
      { streamName: b, expectedRevision: 'no_stream', events: events(1) },
      { streamName: a, expectedRevision: 1, events: events(1) },
    ]);
    expect(results.map((r) => [r.streamName, r.nextExpectedRevision])).toEqual([
      [a, 1],
      [b, 0],
      [a, 2],
    ]);
    expect(results[1]!.lastGlobalPosition).toBeGreaterThan(results[0]!.lastGlobalPosition);
    expect(await ctx.store.readStream(a)).toHaveLength(3);
  });

  it('appendMany writes nothing when a later request conflicts', async () => {
    const [a, b] = [ctx.stream('a'), ctx.stream('b')];
    await ctx.store.append({ streamName: b, expectedRevision: 'no_stream', events: events(1) });
    const error = await rejection(
      ctx.store.appendMany([
        { streamName: a, expectedRevision: 'no_stream', events: events(2) },
        { streamName: b, expectedRevision: 'no_stream', events: events(1) },
      ]),
    );
    expect(error).toBeInstanceOf(WrongExpectedRevisionError);
    expect(error).toMatchObject({ streamName: b, actual: 0 });
    expect(await ctx.store.readStream(a)).toEqual([]);
    expect(await ctx.store.readStream(b)).toHaveLength(1);
  });

  it('treats an exact retry of stored event ids as success and stores nothing twice', async () => {
    const name = ctx.stream('retry');
    await ctx.store.append({ streamName: name, expectedRevision: 'no_stream', events: events(1) });
    const batch = events(2);
    const first = await ctx.store.append({ streamName: name, expectedRevision: 0, events: batch });
    const again = await ctx.store.append({ streamName: name, expectedRevision: 0, events: batch });
    const concurrent = await Promise.all(
      [1, 2].map(() => ctx.store.append({ streamName: name, expectedRevision: 0, events: batch })),
    );
    expect([again, ...concurrent]).toEqual([first, first, first]);
    expect((await ctx.store.readStream(name)).map((e) => e.id)).toEqual([
      expect.any(String),
      batch[0]!.id,
      batch[1]!.id,
    ]);
  });

  it('refuses a stored event id outside an exact retry, writing nothing', async () => {
    const [a, b] = [ctx.stream('a'), ctx.stream('b')];
    const stored = event();
    await ctx.store.append({ streamName: a, expectedRevision: 'no_stream', events: [stored] });
    await expect(
      ctx.store.append({ streamName: b, expectedRevision: 'any', events: [event(), stored] }),
    ).rejects.toThrow();
    await expect(
      ctx.store.append({ streamName: a, expectedRevision: 'any', events: [stored, event()] }),
    ).rejects.toThrow();
    const twice = event();
    await expect(
      ctx.store.append({ streamName: b, expectedRevision: 'any', events: [twice, twice] }),
    ).rejects.toThrow();
    expect(await ctx.store.readStream(a)).toHaveLength(1);
    expect(await ctx.store.readStream(b)).toEqual([]);
  });

  it('round trips unicode, NUL, quotes and a 1 MB payload', async () => {
    const name = ctx.stream('ünïcødé-名前-🚚');
    const text = 'Zürich 東京 مرحبا 🚚📦 e\u0301 \u0000 "quoted" \\ \n\t \u2028';
    const large = 'x'.repeat(512 * 1024) + '🚚'.repeat(128 * 1024);
    const appended = [event('Unicode.v1', { text, [text]: [text] }, { note: text }), event('Large.v1', { large })];
    await ctx.store.append({ streamName: name, expectedRevision: 'no_stream', events: appended });
    const read = await ctx.store.readStream(name);
    expect(read.map((e) => [e.streamName, e.data, e.metadata])).toEqual([
      [name, { text, [text]: [text] }, { note: text }],
      [name, { large }, {}],
    ]);
  });
}
