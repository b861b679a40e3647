/** The `onCommit(groupSize)` hook of the SQLite and PostgreSQL stores: every append call is counted in exactly one group. */
import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from '@jest/globals';
import { events, rejection } from './conformance/context.ts';
import type { EventStore } from './port.ts';
import { WrongExpectedRevisionError } from './port.ts';
import { createPostgresEventStore } from './postgres.ts';
import { pgTestUrl, tempSchema } from './postgresTesting.ts';
import { createSqliteEventStore } from './sqlite.ts';

/** 20 appends and one refused append at once, then one alone: 22 calls, the first 21 sharing groups. */
async function appendInGroups(store: EventStore): Promise<void> {
  const prefix = `grp${randomUUID().slice(0, 8)}`;
  await store.append({ streamName: `${prefix}-taken`, expectedRevision: 'no_stream', events: events(1) });
  const calls = Array.from({ length: 20 }, (_, i) => store.append({ streamName: `${prefix}-${i}`, expectedRevision: 'no_stream', events: events(2) }));
  const refused = rejection(store.append({ streamName: `${prefix}-taken`, expectedRevision: 'no_stream', events: events(1) }));
  await Promise.all(calls);
  expect(await refused).toBeInstanceOf(WrongExpectedRevisionError);
}

function observed(): { sizes: number[]; onCommit: (size: number) => void } {
  const sizes: number[] = [];
  return { sizes, onCommit: (size) => sizes.push(size) };
}

describe('sqlite onCommit', () => {
  it.each([
    ['a file, writes on the writer thread', {}],
    ['a file, writes on the calling thread', { writerThread: false }],
  ])('%s: each append call in one group, groups of more than one', async (_, options) => {
    const dir = await mkdtemp(join(tmpdir(), 'parcel-eventstore-'));
    const { sizes, onCommit } = observed();
    const store = createSqliteEventStore({ file: join(dir, 'events.db'), onCommit, onHandlerError: () => undefined, ...options });
    try {
      await appendInGroups(store);
      expect(sizes.reduce((a, b) => a + b, 0)).toBe(22);
      expect(Math.max(...sizes)).toBeGreaterThan(1);
    } finally {
      await store.close();
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('checkpoint saves alone are no group; an observer that throws breaks nothing', async () => {
    const sizes: number[] = [];
    const store = createSqliteEventStore({
      file: ':memory:',
      onCommit: (size) => {
        sizes.push(size);
        throw new Error('observer fails');
      },
    });
    try {
      await store.append({ streamName: 's-1', expectedRevision: 'no_stream', events: events(1) });
      const subscription = store.subscribeToAll({ subscriptionId: 'observed', pollIntervalMs: 20, handler: async () => undefined });
      await subscription.caughtUp();
      await subscription.stop(); // saves its checkpoint
      expect(sizes).toEqual([1]);
      expect((await store.readStream('s-1')).length).toBe(1);
    } finally {
      await store.close();
    }
  });
});

describe('postgres onCommit', () => {
  it('each append call in one group, groups of more than one', async () => {
    const url = pgTestUrl();
    const { schema, drop } = tempSchema(url);
    const { sizes, onCommit } = observed();
    const store = await createPostgresEventStore({ connectionString: url, schema, poolSize: 2, onCommit, onHandlerError: () => undefined });
    try {
      await appendInGroups(store);
      expect(sizes.reduce((a, b) => a + b, 0)).toBe(22);
      expect(Math.max(...sizes)).toBeGreaterThan(1);
    } finally {
      await store.close();
      await drop();
    }
  });
});
