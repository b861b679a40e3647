import { NO_STREAM, WrongExpectedVersionError } from '@kurrent/kurrentdb-client';
import { describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import { events } from '@parcel-logistics/eventstore/conformance';
import {
  checkpointStreamPrefix,
  decodeStream,
  encodeStream,
  fromGlobalPosition,
  planMultiAppend,
  toEventData,
  toGlobalPosition,
  toPortError,
  toRecorded,
} from './kurrentdbMapping.ts';
import { WrongExpectedRevisionError, type AppendRequest } from '@parcel-logistics/eventstore';

describe('KurrentDB stream names', () => {
  it('leaves plain names alone and escapes the rest, reversibly', () => {
    expect(encodeStream('parcel-PX0123456789ABCDEFG')).toBe('parcel-PX0123456789ABCDEFG');
    expect(encodeStream('reference-demo/ORDER 1_a')).toBe('reference-demo_2fORDER_201_5fa');
    expect(encodeStream('$all')).toBe('_24all');
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme' }), (name) => {
        const encoded = encodeStream(name);
        expect(encoded).toMatch(/^[A-Za-z0-9_.-]*$/);
        expect(decodeStream(encoded)).toBe(name);
      }),
    );
  });

  it('never produces a checkpoint stream name or a system stream name', () => {
    fc.assert(
      fc.property(fc.string(), (name) => {
        const encoded = encodeStream(name);
        expect(encoded.startsWith(checkpointStreamPrefix)).toBe(false);
        expect(encoded.startsWith('$')).toBe(false);
      }),
    );
  });
});

describe('KurrentDB positions and events', () => {
  it('maps a log position to a 1-based global position and back', () => {
    expect(toGlobalPosition({ commit: 0n, prepare: 0n })).toBe(1);
    expect(toGlobalPosition({ commit: 4096n, prepare: 4096n })).toBe(4097);
    expect(fromGlobalPosition(4097)).toEqual({ commit: 4096n, prepare: 4096n });
    expect(() => toGlobalPosition(undefined)).toThrow(/position/);
  });

  it('round trips data and metadata through the stored shape', () => {
    const data = { text: 'a \u0000 b', n: [1, null] };
    const stored = toEventData({
      id: '0b7e6a8e-5d0c-4c53-9d55-3a3f3f8e0e01',
      type: 'A.v1',
      data,
      metadata: { traceId: 't' },
    });
    expect(stored.metadata).toEqual({ 'parcel.metadata': '{"traceId":"t"}' });
    const recorded = toRecorded({
      streamId: 'reference-demo_2fX',
      id: stored.id,
      isJson: true,
      revision: 3n,
      type: 'A.v1',
      created: new Date('2026-01-02T03:04:05.678Z'),
      data: JSON.parse(JSON.stringify(data)) as typeof data,
      metadata: { ...(stored.metadata as object), '$schema.name': 'A.v1' },
      position: { commit: 99n, prepare: 99n },
    });
    expect(recorded).toEqual({
      id: stored.id,
      streamName: 'reference-demo/X',
      type: 'A.v1',
      revision: 3,
      globalPosition: 100,
      data,
      metadata: { traceId: 't' },
      recordedAt: '2026-01-02T03:04:05.678Z',
    });
  });

  it('maps WrongExpectedVersionError to WrongExpectedRevisionError of the request on that stream', () => {
    const requests: AppendRequest[] = [
      { streamName: 'a/1', expectedRevision: 'no_stream', events: events(1) },
      { streamName: 'b/2', expectedRevision: 4, events: events(1) },
    ];
    const conflict = (current: bigint | typeof NO_STREAM) =>
      new WrongExpectedVersionError(undefined, { streamName: encodeStream('b/2'), expected: 4n, current });
    expect(toPortError(conflict(6n), requests)).toMatchObject({ streamName: 'b/2', expected: 4, actual: 6 });
    expect(toPortError(conflict(NO_STREAM), requests)).toMatchObject({ streamName: 'b/2', actual: -1 });
    const other = new Error('down');
    expect(toPortError(other, requests)).toBe(other);
  });
});

describe('planMultiAppend', () => {
  const noHead = async (): Promise<number> => {
    throw new Error('no read expected');
  };

  it('keeps distinct streams as they are', async () => {
    const requests: AppendRequest[] = [
      { streamName: 'a', expectedRevision: 'no_stream', events: events(2) },
      { streamName: 'b', expectedRevision: 3, events: events(1) },
    ];
    const plan = await planMultiAppend(requests, noHead);
    expect(plan.appends.map((a) => [a.streamName, a.expectedRevision, a.events.length])).toEqual([
      ['a', 'no_stream', 2],
      ['b', 3, 1],
    ]);
    expect(plan.parts).toEqual([
      { append: 0, end: 2 },
      { append: 1, end: 1 },
    ]);
  });

  it('merges a later request on the same stream when its expectation follows from the earlier one', async () => {
    const requests: AppendRequest[] = [
      { streamName: 'a', expectedRevision: 'no_stream', events: events(2) },
      { streamName: 'b', expectedRevision: 'no_stream', events: events(1) },
      { streamName: 'a', expectedRevision: 1, events: events(1) },
      { streamName: 'a', expectedRevision: 'stream_exists', events: events(2) },
    ];
    const plan = await planMultiAppend(requests, noHead);
    expect(plan.appends.map((a) => [a.streamName, a.expectedRevision, a.events.length])).toEqual([
      ['a', 'no_stream', 5],
      ['b', 'no_stream', 1],
    ]);
    expect(plan.parts).toEqual([
      { append: 0, end: 2 },
      { append: 1, end: 1 },
      { append: 0, end: 3 },
      { append: 0, end: 5 },
    ]);
  });

  it('refuses a later request whose expectation cannot hold, naming the revision it would meet', async () => {
    const requests: AppendRequest[] = [
      { streamName: 'a', expectedRevision: 4, events: events(2) },
      { streamName: 'a', expectedRevision: 5, events: events(1) },
    ];
    const error = await planMultiAppend(requests, noHead).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(WrongExpectedRevisionError);
    expect(error).toMatchObject({ streamName: 'a', expected: 5, actual: 6 });
  });

  it('reads the stream when the first expectation leaves its revision open, then expects exactly that', async () => {
    const requests: AppendRequest[] = [
      { streamName: 'a', expectedRevision: 'any', events: events(1) },
      { streamName: 'a', expectedRevision: 8, events: events(1) },
    ];
    const plan = await planMultiAppend(requests, async () => 7);
    expect(plan.appends[0]).toMatchObject({ expectedRevision: 7 });
    await expect(planMultiAppend(requests, async () => 3)).rejects.toMatchObject({ expected: 8, actual: 4 });
    await expect(planMultiAppend(requests, async () => -1)).rejects.toMatchObject({ expected: 8, actual: 0 });
  });
});
