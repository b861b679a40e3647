/** The `onCommit(groupSize)` hook of the SQLite store (the PostgreSQL store's: eventstore-postgres): every append call is counted in exactly one group. */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from '@jest/globals';
import { appendInGroups, events, observed } from '@parcel-logistics/eventstore/conformance';
import { createSqliteEventStore } from './sqlite.ts';

describe('sqlite onCommit', () => {
  it.each([
    ['a file, writes on the writer thread', {}],
    ['a file, writes on the calling thread', { writerThread: false }],
  ])('%s: each append call in one group, groups of more than one', async (_, options) => {
    const dir = await mkdtemp(join(tmpdir(), 'parcel-eventstore-'));
    const { sizes, onCommit } = observed();
    const store = createSqliteEventStore({
      file: join(dir, 'events.db'),
      onCommit,
      onHandlerError: () => undefined,
      ...options,
    });
    try {
      await appendInGroups(store, sizes);
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
      const subscription = store.subscribeToAll({
        subscriptionId: 'observed',
        pollIntervalMs: 20,
        handler: async () => undefined,
      });
      await subscription.caughtUp();
      await subscription.stop(); // saves its checkpoint
      expect(sizes).toEqual([1]);
      expect((await store.readStream('s-1')).length).toBe(1);
    } finally {
      await store.close();
    }
  });
});
