import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { DatabaseSync } from 'node:sqlite';
import { Worker } from 'node:worker_threads';
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { event, record, waitFor } from '@parcel-logistics/eventstore/conformance';
import type { EventStore } from '@parcel-logistics/eventstore';
import { createSqliteEventStore, type SqliteEventStoreOptions } from './sqlite.ts';

// A worker thread is a separate SQLite connection with its own event loop: as close to a
// second process as a test gets. It loads the adapter through Node's own type stripping.
const workerSource = `
const { workerData, parentPort } = require('node:worker_threads');
const { randomUUID } = require('node:crypto');
(async () => {
  const { createSqliteEventStore } = await import(workerData.module);
  const store = createSqliteEventStore({ file: workerData.file });
  let failures = [];
  for (let round = 0; round < 10; round++) {
    const outcomes = await Promise.allSettled(Array.from({ length: 20 }, () => store.append({
      streamName: 'shared', expectedRevision: 'any',
      events: [{ id: randomUUID(), type: 'Worker.v1', data: { worker: workerData.worker } }],
    })));
    failures.push(...outcomes.filter((o) => o.status === 'rejected').map((o) => String(o.reason)));
  }
  await store.close();
  parentPort.postMessage(failures);
})().catch((error) => parentPort.postMessage([String(error)]));
`;

function appendFromWorker(file: string, worker: number): Promise<string[]> {
  // Jest runs this file as CommonJS, where __dirname is defined.
  const module = pathToFileURL(join(__dirname, 'sqlite.ts')).href;
  return new Promise((resolve, reject) => {
    const thread = new Worker(workerSource, { eval: true, workerData: { file, worker, module } });
    thread.once('message', (failures: string[]) => resolve(failures));
    thread.once('error', reject);
  });
}

describe('sqlite event store on a shared file', () => {
  let file: string;
  let dir: string;
  const opened: EventStore[] = [];
  const open = (options: Partial<SqliteEventStoreOptions> = {}) => {
    const store = createSqliteEventStore({ file, onHandlerError: () => undefined, ...options });
    opened.push(store);
    return store;
  };

  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'parcel-eventstore-'));
    file = join(dir, 'events.db');
  });
  afterEach(async () => {
    await Promise.all(opened.splice(0).map((s) => s.close()));
    await rm(dir, { recursive: true, force: true });
  });

  it('runs in WAL mode', () => {
    open({ durability: 'normal' });
    const db = new DatabaseSync(file);
    try {
      expect(db.prepare('PRAGMA journal_mode').get()).toEqual({ journal_mode: 'wal' });
    } finally {
      db.close();
    }
  });

  it("a subscription sees another store object's commits by polling", async () => {
    const [writer, reader] = [open(), open()];
    const { subscription, seen } = record(reader, 'shared', { pollIntervalMs: 20 });
    try {
      await subscription.caughtUp();
      await writer.append({ streamName: 'shared-1', expectedRevision: 'no_stream', events: [event()] });
      await waitFor(() => seen.length === 1, 1000);
      await reader.append({ streamName: 'shared-1', expectedRevision: 0, events: [event()] });
      await waitFor(() => seen.length === 2, 1000);
      expect(seen.map((e) => e.revision)).toEqual([0, 1]);
    } finally {
      await subscription.stop();
    }
  });

  it('two store objects contending for one stream: exactly one wins', async () => {
    const [a, b] = [open(), open()];
    const outcomes = await Promise.allSettled(
      [a, b, a, b].map((s) => s.append({ streamName: 'contended', expectedRevision: 'no_stream', events: [event()] })),
    );
    expect(outcomes.filter((o) => o.status === 'fulfilled')).toHaveLength(1);
    expect(await a.readStream('contended')).toHaveLength(1);
  });

  it('concurrent writers on other threads all commit, and a polling subscription sees every event in order', async () => {
    const store = open();
    const { subscription, seen } = record(store, 'shared', { pollIntervalMs: 20 });
    try {
      const failures = await Promise.all([1, 2, 3].map((worker) => appendFromWorker(file, worker)));
      expect(failures.flat()).toEqual([]);
      await subscription.caughtUp();
      expect(seen.map((e) => e.revision)).toEqual(Array.from({ length: 600 }, (_, i) => i));
      expect(seen.map((e) => e.globalPosition)).toEqual([...seen.map((e) => e.globalPosition)].sort((x, y) => x - y));
    } finally {
      await subscription.stop();
    }
  });
});
