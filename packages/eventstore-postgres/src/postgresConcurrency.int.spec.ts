import { randomUUID } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it, jest } from '@jest/globals';
import pg from 'pg';
import { event, events, record, waitFor } from '@parcel-logistics/eventstore/conformance';
import { WrongExpectedRevisionError } from '@parcel-logistics/eventstore';
import type { AppendRequest, EventStore } from '@parcel-logistics/eventstore';
import { createPostgresEventStore, type PostgresEventStoreOptions } from './postgres.ts';
import { pgNames } from './postgresSchema.ts';
import { pgTestUrl, tempSchema } from '@parcel-logistics/postgres/scratch';

const url = pgTestUrl();

// Each store object is its own pool: as close to separate processes as one test gets.
describe('postgres event store shared by several store objects', () => {
  let schema: string;
  let drop: () => Promise<void>;
  const opened: EventStore[] = [];
  const open = async (options: Partial<PostgresEventStoreOptions> = {}) => {
    const store = await createPostgresEventStore({
      connectionString: url,
      schema,
      onHandlerError: () => undefined,
      ...options,
    });
    opened.push(store);
    return store;
  };

  beforeEach(() => {
    ({ schema, drop } = tempSchema(url));
  });
  afterEach(async () => {
    await Promise.all(opened.splice(0).map((s) => s.close()));
    await drop();
  });

  it('stores starting at once on a new schema all create it without a clash', async () => {
    const stores = await Promise.all(Array.from({ length: 6 }, () => open({ poolSize: 1 })));
    await Promise.all(
      stores.map((s, i) => s.append({ streamName: `start-${i}`, expectedRevision: 'no_stream', events: [event()] })),
    );
    expect(await stores[0]!.readAll({ limit: 10 })).toHaveLength(6);
  });

  it('two store objects contending for one stream: exactly one wins', async () => {
    const [a, b] = [await open({ poolSize: 5 }), await open({ poolSize: 5 })];
    const outcomes = await Promise.allSettled(
      Array.from({ length: 20 }, (_, i) =>
        (i % 2 ? a : b).append({ streamName: 'contended', expectedRevision: 'no_stream', events: [event()] }),
      ),
    );
    expect(outcomes.filter((o) => o.status === 'fulfilled')).toHaveLength(1);
    expect(await a.readStream('contended')).toHaveLength(1);
  });

  it("a subscription is woken by another store object's commit (LISTEN/NOTIFY), not by polling", async () => {
    const [writer, reader] = [await open(), await open()];
    const { subscription, seen } = record(reader, 'notified', { pollIntervalMs: 60_000 });
    try {
      await subscription.caughtUp();
      await writer.append({ streamName: 'notified-1', expectedRevision: 'no_stream', events: [event()] });
      await waitFor(() => seen.length === 1, 1000);
    } finally {
      await subscription.stop();
    }
  });

  it("a stream's first append, written without a lookup: retried with its ids it answers as the first time; on a stream that exists it is refused", async () => {
    const [a, b] = [await open(), await open()];
    const batch = events(2);
    const first = await a.append({ streamName: 'started', expectedRevision: 'no_stream', events: batch });
    // The answer was lost and the caller retries, here through another process.
    expect(await b.append({ streamName: 'started', expectedRevision: 'no_stream', events: batch })).toEqual(first);
    await expect(b.append({ streamName: 'started', expectedRevision: 'no_stream', events: events(1) })).rejects.toThrow(
      WrongExpectedRevisionError,
    );
    expect((await a.readStream('started')).map((e) => e.id)).toEqual(batch.map((e) => e.id));
  });

  it('appends at the revisions their callers name, to streams that exist, are written without a lookup: one round trip', async () => {
    // Every commit notifies in its own call: no notification of its own goes out meanwhile.
    const store = await open({ notifyWindowMs: 0 });
    await store.append({ streamName: 'known-1', expectedRevision: 'no_stream', events: events(2) });
    await store.append({ streamName: 'known-2', expectedRevision: 'no_stream', events: events(1) });
    const queries = jest.spyOn(pg.Client.prototype, 'query');
    let results;
    try {
      results = await store.appendMany([
        { streamName: 'known-1', expectedRevision: 1, events: events(1) },
        { streamName: 'known-2', expectedRevision: 0, events: events(2) },
      ]);
      expect(queries).toHaveBeenCalledTimes(1);
    } finally {
      queries.mockRestore();
    }
    expect(results).toEqual([
      { streamName: 'known-1', nextExpectedRevision: 2, lastGlobalPosition: 4 },
      { streamName: 'known-2', nextExpectedRevision: 2, lastGlobalPosition: 6 },
    ]);
    expect((await store.readStream('known-2')).map((e) => [e.revision, e.globalPosition])).toEqual([
      [0, 3],
      [1, 5],
      [2, 6],
    ]);
  });

  it('an expected revision past the end of its stream is refused, and leaves no gap in the stream', async () => {
    const [a, b] = [await open(), await open()];
    await a.append({ streamName: 'short', expectedRevision: 'no_stream', events: events(2) });
    await expect(b.append({ streamName: 'short', expectedRevision: 4, events: events(1) })).rejects.toThrow(
      WrongExpectedRevisionError,
    );
    // With another stream's valid append in the same call: that one is written.
    const [refused, written] = await Promise.allSettled([
      b.append({ streamName: 'short', expectedRevision: 2, events: events(1) }),
      b.append({ streamName: 'short-2', expectedRevision: 'no_stream', events: events(1) }),
    ]);
    expect(refused.status).toBe('rejected');
    expect(written.status).toBe('fulfilled');
    expect((await a.readStream('short')).map((e) => e.revision)).toEqual([0, 1]);
    expect(await a.readStream('short-2')).toHaveLength(1);
  });

  it('commits inside the notification window are quiet, and one notification follows them', async () => {
    const writer = await open({ notifyWindowMs: 500 });
    const reader = await open();
    const { subscription, seen } = record(reader, 'windowed', { pollIntervalMs: 60_000 });
    const listener = new pg.Client({ connectionString: url });
    let notifications = 0;
    listener.on('notification', () => (notifications += 1));
    try {
      await listener.connect();
      await listener.query(`LISTEN ${pgNames(schema).channel}`);
      await subscription.caughtUp();
      for (let i = 0; i < 5; i++)
        await writer.append({ streamName: `windowed-${i}`, expectedRevision: 'no_stream', events: [event()] });
      // The first commit notified at once; the other four, with no commit after the window, by a notification of their own.
      await waitFor(() => seen.length === 5 && notifications >= 2, 3_000);
      expect(notifications).toBe(2);
    } finally {
      await subscription.stop();
      await listener.end();
    }
  });

  it('many concurrent appends from several pools while a subscription reads: every event once, positions strictly increasing', async () => {
    const reader = await open({ poolSize: 2 });
    const { subscription, seen } = record(reader, 'load', { pollIntervalMs: 2 });
    const writers = await Promise.all([1, 2, 3, 4].map(() => open({ poolSize: 6 })));
    // Single appends, multi-event appends and appendMany over a few hot streams, all in flight together.
    const request = (i: number): AppendRequest => ({
      streamName: `load-${i % 25}`,
      expectedRevision: 'any',
      events: events(1 + (i % 3)),
    });
    const appended = await Promise.all(
      Array.from({ length: 800 }, async (_, i) => {
        const store = writers[i % writers.length]!;
        const batch = i % 5 === 0 ? [request(i), request(i + 7)] : [request(i)];
        await (batch.length > 1 ? store.appendMany(batch) : store.append(batch[0]!));
        return batch.flatMap((r) => r.events.map((e) => e.id));
      }),
    );
    try {
      await subscription.caughtUp();
      const ids = appended.flat();
      const positions = seen.map((e) => e.globalPosition);
      expect(seen).toHaveLength(ids.length);
      expect(new Set(seen.map((e) => e.id))).toEqual(new Set(ids));
      // Strictly increasing and, as positions are drawn under the append lock, without gaps.
      expect(positions).toEqual(Array.from({ length: ids.length }, (_, i) => i + 1));
      expect(seen.map((e) => e.id)).toEqual((await reader.readAll({ limit: ids.length + 1 })).map((e) => e.id));
    } finally {
      await subscription.stop();
    }
  }, 60_000);

  it('appends racing from several store objects report where their events were stored; an exact retry racing its original succeeds with its result', async () => {
    // The lookup takes no lock: a group that loses a race is looked up and planned again, and the
    // positions it planned are moved to where the rows really went.
    const stores = await Promise.all([1, 2, 3].map(() => open({ poolSize: 4 })));
    const requests = Array.from({ length: 60 }, (_, i): AppendRequest => ({
      streamName: `race-retry-${i % 6}`,
      expectedRevision: 'any',
      events: events(1 + (i % 2)),
    }));
    // Every request is sent by two stores at once: one stores it, the other is its retry.
    const results = await Promise.all(
      requests.flatMap((request, i) => [stores[i % 3]!.append(request), stores[(i + 1) % 3]!.append(request)]),
    );
    const stored = new Map((await stores[0]!.readAll({ limit: 1000 })).map((e) => [e.id, e]));
    expect(stored.size).toBe(requests.reduce((sum, r) => sum + r.events.length, 0));
    requests.forEach((request, i) => {
      const last = stored.get(request.events.at(-1)!.id)!;
      const expected = {
        streamName: request.streamName,
        nextExpectedRevision: last.revision,
        lastGlobalPosition: last.globalPosition,
      };
      expect([results[2 * i], results[2 * i + 1]]).toEqual([expected, expected]);
    });
  }, 60_000);

  it('an append racing a reader never becomes visible before an earlier position', async () => {
    // A reader polling as fast as it can while appends commit: what it has seen must always be a
    // prefix 1..n of the log, never a later position without the earlier ones.
    const [writer, reader] = [await open({ poolSize: 10 }), await open({ poolSize: 1 })];
    let stop = false;
    const violations: string[] = [];
    const poll = (async () => {
      let after = 0;
      while (!stop) {
        const page = await reader.readAll({ afterPosition: after, limit: 1000 });
        for (const e of page) {
          if (e.globalPosition !== after + 1) violations.push(`${after} -> ${e.globalPosition}`);
          after = e.globalPosition;
        }
      }
    })();
    await Promise.all(
      Array.from({ length: 400 }, () =>
        writer.append({ streamName: `race-${randomUUID()}`, expectedRevision: 'no_stream', events: events(2) }),
      ),
    );
    stop = true;
    await poll;
    expect(violations).toEqual([]);
  }, 60_000);
});

describe('postgres subscription leases: one subscription id served by one process at a time', () => {
  let schema: string;
  let drop: () => Promise<void>;
  beforeEach(() => {
    ({ schema, drop } = tempSchema(url));
  });
  afterEach(async () => {
    await drop();
  });

  it('two stores subscribing with one id: only the holder delivers; when it closes, the other takes over after its checkpoint', async () => {
    const open = (leaseRetryMs: number) =>
      createPostgresEventStore({ connectionString: url, schema, leaseRetryMs, onHandlerError: () => undefined });
    const [writer, first, second] = await Promise.all([open(1000), open(50), open(50)]);
    try {
      // An event before the first subscriber: caught up means it delivered it, so it holds the lease
      // (on an empty log a subscriber still waiting for the lease is caught up too).
      await writer.append({ streamName: 'lease-first', expectedRevision: 'no_stream', events: [event()] });
      const a = record(first, 'lease', { subscriptionId: 'shared', pollIntervalMs: 20 });
      await a.subscription.caughtUp(); // holds the lease from here on
      expect(a.seen).toHaveLength(1);
      const b = record(second, 'lease', { subscriptionId: 'shared', pollIntervalMs: 20 });
      await writer.appendMany(
        Array.from({ length: 5 }, (_, i) => ({
          streamName: `lease-${i}`,
          expectedRevision: 'no_stream' as const,
          events: [event()],
        })),
      );
      await a.subscription.caughtUp();
      await b.subscription.caughtUp(); // standing by: caught up through the holder's checkpoint
      expect(a.seen).toHaveLength(6);
      expect(b.seen).toHaveLength(0);

      await first.close(); // ends the lease's connection
      await writer.append({ streamName: 'lease-after', expectedRevision: 'no_stream', events: [event()] });
      await waitFor(() => b.seen.length === 1, 5000);
      expect(b.seen.map((e) => e.streamName)).toEqual(['lease-after']);
      await b.subscription.stop();
    } finally {
      await Promise.all([writer, first, second].map((s) => s.close()));
    }
  }, 30_000);
});
