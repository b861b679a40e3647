import { execFile } from 'node:child_process';
import { DatabaseSync } from 'node:sqlite';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { eventStoreConformance } from '@parcel-logistics/eventstore/conformance';
import { event, events, rejection } from '@parcel-logistics/eventstore/conformance';
import { DuplicateEventIdError } from '@parcel-logistics/eventstore';
import type { EventStore, RecordedEvent } from '@parcel-logistics/eventstore';
import { storeInTempFile, tempFile } from '@parcel-logistics/sqlite/scratch';
import { createSqliteEventStore, type SqliteEventStoreOptions } from './sqlite.ts';

const quiet: Pick<SqliteEventStoreOptions, 'onHandlerError'> = { onHandlerError: () => undefined };

// Writes on the writer thread (the default for files).
eventStoreConformance('sqlite file', () =>
  storeInTempFile('events.db', (file) => createSqliteEventStore({ file, ...quiet })),
);

eventStoreConformance('sqlite file, writes on the calling thread', () =>
  storeInTempFile('events.db', (file) => createSqliteEventStore({ file, writerThread: false, ...quiet })),
);

eventStoreConformance('sqlite :memory:', async () => {
  const store = createSqliteEventStore({ file: ':memory:', ...quiet });
  return { store, cleanup: () => store.close() };
});

describe('sqlite writer thread', () => {
  let file: string;
  let remove: () => Promise<void>;
  const opened: EventStore[] = [];
  const open = (options: Partial<SqliteEventStoreOptions> = {}) => {
    const store = createSqliteEventStore({ file, ...quiet, ...options });
    opened.push(store);
    return store;
  };

  beforeEach(async () => {
    ({ file, remove } = await tempFile('events.db'));
  });
  afterEach(async () => {
    await Promise.all(opened.splice(0).map((s) => s.close()));
    await remove();
  });

  it('keeps the event loop running while a commit waits, here for another connection’s lock', async () => {
    const store = open();
    await store.append({ streamName: 'warm', expectedRevision: 'no_stream', events: [event()] });
    const other = new DatabaseSync(file);
    other.exec('BEGIN IMMEDIATE');
    let worstLagMs = 0;
    let last = performance.now();
    const probe = setInterval(() => {
      const now = performance.now();
      worstLagMs = Math.max(worstLagMs, now - last);
      last = now;
    }, 1);
    try {
      // On this thread the busy wait would block the loop, so the timer releasing the lock could
      // not fire before the busy timeout: the append would fail.
      const appended = store.append({ streamName: 'waits', expectedRevision: 'no_stream', events: [event()] });
      await new Promise((resolve) => setTimeout(resolve, 300));
      other.exec('ROLLBACK');
      await expect(appended).resolves.toMatchObject({ nextExpectedRevision: 0 });
    } finally {
      clearInterval(probe);
      if (other.isTransaction) other.exec('ROLLBACK');
      other.close();
    }
    expect(worstLagMs).toBeLessThan(100);
    expect(await store.readStream('waits')).toHaveLength(1);
  });

  it('a failed commit rejects its batch with the SQLite error, and the next batch commits', async () => {
    const store = open({ busyTimeoutMs: 20 });
    const other = new DatabaseSync(file);
    other.exec('BEGIN IMMEDIATE');
    let failed: unknown;
    try {
      failed = await rejection(store.append({ streamName: 'busy', expectedRevision: 'no_stream', events: [event()] }));
    } finally {
      other.exec('ROLLBACK');
      other.close();
    }
    expect(failed).toBeInstanceOf(Error);
    expect(failed).toMatchObject({
      code: 'ERR_SQLITE_ERROR',
      errcode: 5,
      message: expect.stringMatching(/locked|busy/i),
    });
    await expect(
      store.append({ streamName: 'busy', expectedRevision: 'no_stream', events: [event()] }),
    ).resolves.toMatchObject({
      nextExpectedRevision: 0,
    });
  });

  it('re-creates the port’s errors with their fields', async () => {
    const store = open();
    const stored = event();
    await store.append({ streamName: 'a', expectedRevision: 'no_stream', events: [stored] });
    const error = await rejection(store.append({ streamName: 'b', expectedRevision: 'any', events: [stored] }));
    expect(error).toBeInstanceOf(DuplicateEventIdError);
    expect(error).toMatchObject({ name: 'DuplicateEventIdError', streamName: 'b', eventId: stored.id });
  });

  it('rejects a request that cannot be serialised alone', async () => {
    const store = open();
    const outcomes = await Promise.allSettled([
      store.append({ streamName: 'ok', expectedRevision: 'no_stream', events: [event()] }),
      store.append({ streamName: 'bad', expectedRevision: 'no_stream', events: [event('Bad.v1', { n: 1n })] }),
    ]);
    expect(outcomes.map((o) => o.status)).toEqual(['fulfilled', 'rejected']);
    expect(await store.readStream('bad')).toEqual([]);
  });

  it('its subscriptions get the events of its own commits exactly as a read of the log gives them', async () => {
    // The store hands its commits to its log reader as written (no read back from the file):
    // positions, revisions, time, data and metadata must be what a read of the file gives.
    const store = open();
    const seen: RecordedEvent[] = [];
    const subscription = store.subscribeToAll({
      subscriptionId: 'copy',
      handler: async (e) => void seen.push(e),
    });
    await subscription.caughtUp();
    const first = event('Tested.v1', { n: 0, nested: { list: [1, 'two', null] } }, { traceparent: 'tp' });
    await store.append({ streamName: 's-1', expectedRevision: 'no_stream', events: [first] });
    // One batch: an exact retry (stored before), a refused append, two streams in one call, one more.
    const outcomes = await Promise.allSettled([
      store.append({ streamName: 's-1', expectedRevision: 'no_stream', events: [first] }),
      store.append({ streamName: 's-1', expectedRevision: 'no_stream', events: [event()] }),
      store.appendMany([
        { streamName: 's-2', expectedRevision: 'no_stream', events: events(2) },
        { streamName: 's-1', expectedRevision: 0, events: [event()] },
      ]),
      store.append({ streamName: 's-3', expectedRevision: 'any', events: [event('Other.v1', null)] }),
    ]);
    expect(outcomes.map((o) => o.status)).toEqual(['fulfilled', 'rejected', 'fulfilled', 'fulfilled']);
    await subscription.caughtUp();
    await subscription.stop();
    const log = await store.readAll({ limit: 100 });
    expect(log.map((e) => [e.streamName, e.revision, e.globalPosition])).toEqual([
      ['s-1', 0, 1],
      ['s-2', 0, 2],
      ['s-2', 1, 3],
      ['s-1', 1, 4],
      ['s-3', 0, 5],
    ]);
    expect(seen).toEqual(log);
  });

  /** A subscription of `store` whose poll is a minute away, and the sizes of the pages it handles. */
  const pagesSeen = (store: EventStore, subscriptionId: string) => {
    const pages: number[] = [];
    const subscription = store.subscribeToAll({
      subscriptionId,
      pollIntervalMs: 60_000,
      handleBatch: async (page) => void pages.push(page.length),
    });
    return { pages, subscription };
  };

  it('its subscriptions hold their reads back after a page at the head: commits meanwhile come as one page', async () => {
    // The store's default is 50 ms; 1 s here is far longer than five appends take on a busy machine.
    const store = open({ coalesceMs: 1000 });
    const { pages, subscription } = pagesSeen(store, 'coalesced');
    await subscription.caughtUp();
    for (let n = 0; n < 5; n++)
      await store.append({ streamName: `one-by-one-${n}`, expectedRevision: 'no_stream', events: [event()] });
    await subscription.caughtUp();
    await subscription.stop();
    expect(pages).toEqual([5]);
  });

  it('a commit after a quiet spell wakes its subscriptions at once', async () => {
    // Not woken, the subscription would read again only after its poll: past the test's timeout.
    const store = open({ coalesceMs: 100 });
    const { pages, subscription } = pagesSeen(store, 'woken');
    await subscription.caughtUp();
    await new Promise((resolve) => setTimeout(resolve, 300));
    await store.append({ streamName: 'after-quiet', expectedRevision: 'no_stream', events: events(2) });
    await subscription.caughtUp();
    await subscription.stop();
    expect(pages).toEqual([2]);
  });

  it('close commits the appends still queued, then stops the thread', async () => {
    const store = open();
    const appends = Array.from({ length: 100 }, (_, i) =>
      store.append({ streamName: `queued-${i % 10}`, expectedRevision: 'any', events: [event()] }),
    );
    await store.close();
    expect(await Promise.all(appends)).toHaveLength(100);
    await expect(store.append({ streamName: 'late', expectedRevision: 'any', events: [event()] })).rejects.toThrow(
      'closed',
    );
    const reopened = open();
    expect((await reopened.readAll({ limit: 1000 })).length).toBe(100);
  });

  it('an idle store does not keep the process alive', async () => {
    // Jest runs this file as CommonJS, where __dirname is defined.
    const module = pathToFileURL(join(__dirname, 'sqlite.ts')).href;
    const script = `
      const { createSqliteEventStore } = await import(${JSON.stringify(module)});
      const store = createSqliteEventStore({ file: ${JSON.stringify(file)} });
      const result = await store.append({ streamName: 'child', expectedRevision: 'no_stream', events: [{ id: 'e-1', type: 'T.v1', data: 1 }] });
      console.log(JSON.stringify(result));`;
    const output = await new Promise<string>((resolve, reject) => {
      execFile(process.execPath, ['--input-type=module', '-e', script], { timeout: 10_000 }, (error, stdout) =>
        error ? reject(error) : resolve(stdout),
      );
    });
    expect(JSON.parse(output)).toMatchObject({ streamName: 'child', nextExpectedRevision: 0 });
  });
});
