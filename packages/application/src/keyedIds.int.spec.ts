/** Tracking numbers drawn ahead with their keys made: one write of the key store for many parcels. */
import { cachedKeyStore, masterKeyFromBytes } from '@parcel-logistics/keys';
import { createSqliteKeyStore } from '@parcel-logistics/keys/sqlite';
import { randomIds } from './ids.ts';
import { keyedIds } from './sealingEventStore.ts';

test('after the first number, numbers come with their parcel keys already made, each number once', async () => {
  const store = createSqliteKeyStore({ file: ':memory:', masterKey: masterKeyFromBytes(Buffer.alloc(32, 3)) });
  const keys = cachedKeyStore(store);
  const ids = keyedIds(randomIds, keys, { pool: 8 });
  ids.trackingNumber(); // an empty pool: a fresh number, and the pool starts filling
  await new Promise((resolve) => setTimeout(resolve, 50));
  expect((await store.count()).active).toBe(8);
  const drawn = Array.from({ length: 6 }, () => ids.trackingNumber());
  const found = await store.find(drawn.map((tn) => `parcel-${tn}`));
  expect(found.size).toBe(6);
  expect(new Set(drawn).size).toBe(6);
  await new Promise((resolve) => setTimeout(resolve, 50));
  // Below half (at the fifth draw, three left): filled up to eight again in one go.
  expect((await store.count()).active).toBe(8 + 5);
  await keys.close();
});
