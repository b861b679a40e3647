import { execFile } from 'node:child_process';
import { DatabaseSync } from 'node:sqlite';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { eventStoreConformance } from '@parcel-logistics/eventstore/conformance';
import { event, rejection } from '@parcel-logistics/eventstore/conformance';
import { DuplicateEventIdError } from '@parcel-logistics/eventstore';
import type { EventStore } from '@parcel-logistics/eventstore';
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
