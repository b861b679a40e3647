/** The sealing decorator reads back what it sealed itself without the key store, and as any other reader would. */
import { deserializeEvent, parcelStreamName } from '@parcel-logistics/contracts';
import type { ParcelEvent } from '@parcel-logistics/domain';
import { sampleRegistered } from '@parcel-logistics/domain/testing';
import { createSqliteEventStore } from '@parcel-logistics/eventstore-sqlite';
import { cachedKeyStore, masterKeyFromBytes, type KeyStore } from '@parcel-logistics/keys';
import { createSqliteKeyStore } from '@parcel-logistics/keys/sqlite';
import { sealingEventStore } from './sealingEventStore.ts';
import { toAppend } from './toAppend.ts';

const TN = 'PX000000000000002Y';
const registered: ParcelEvent = sampleRegistered(TN, new Date('2026-11-22T06:00:00Z'));

async function setUp() {
  const events = createSqliteEventStore({ file: ':memory:' });
  const keyStore = createSqliteKeyStore({ file: ':memory:', masterKey: masterKeyFromBytes(Buffer.alloc(32, 5)) });
  const finds: string[][] = [];
  const counted = <K extends KeyStore>(keys: K): K => ({
    ...keys,
    find: (ids: string[]) => (finds.push([...ids]), keys.find(ids)),
  });
  const writer = sealingEventStore(events, counted(cachedKeyStore(keyStore)));
  await writer.append({
    streamName: parcelStreamName(TN),
    expectedRevision: 'no_stream',
    events: [toAppend({ event: registered, eventId: 'e-1' }, {})],
  });
  // Another process's view of the same stores: it has to unseal with the stored key.
  const other = sealingEventStore({ ...events, close: async () => {} }, counted(keyStore));
  return { events, writer, other, finds, close: () => writer.close() };
}

test('an event this process sealed reads back with its personal values, no key looked up, as another reader reads it', async () => {
  const { events, writer, other, finds, close } = await setUp();
  try {
    const stored = await events.readStream(parcelStreamName(TN));
    expect(stored[0]!.type).toBe('ParcelRegistered.v3');
    expect(JSON.stringify(stored[0]!.data)).not.toContain(registered.data.order.recipient.phone);
    const [mine] = await writer.readAll({ limit: 10 });
    expect(finds).toEqual([]);
    const [theirs] = await other.readStream(parcelStreamName(TN));
    expect(finds).toEqual([[parcelStreamName(TN)]]);
    expect(mine).toEqual(theirs);
    expect(deserializeEvent(mine!)).toEqual(registered);
  } finally {
    await close();
  }
});

test('once its key is destroyed, what this process sealed reads as the clear part alone', async () => {
  const { writer, close } = await setUp();
  try {
    await writer.destroyKey(parcelStreamName(TN));
    const [read] = await writer.readStream(parcelStreamName(TN));
    expect(JSON.stringify(read!.data)).not.toContain(registered.data.order.recipient.phone);
    expect((deserializeEvent(read!) as ParcelEvent & { type: 'ParcelRegistered' }).data.order.recipient.name).toBe('');
  } finally {
    await close();
  }
});
