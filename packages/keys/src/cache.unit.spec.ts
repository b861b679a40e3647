import { generateKeySync } from 'node:crypto';
import { describe, expect, it } from '@jest/globals';
import { cachedKeyStore } from './cache.ts';
import type { DataKey, KeyStore } from './port.ts';

/** A store in memory that counts the parcel ids it was asked to find. */
function memoryStore() {
  const keys = new Map<string, DataKey>();
  const asked: string[] = [];
  let findGate: Promise<void> | undefined;
  const store: KeyStore = {
    async create(parcelId) {
      const existing = keys.get(parcelId);
      if (existing) return { status: 'existing', key: existing };
      const key = { parcelId, keyId: `${parcelId}#1`, key: generateKeySync('aes', { length: 256 }) };
      keys.set(parcelId, key);
      return { status: 'created', key };
    },
    async find(parcelIds) {
      asked.push(...parcelIds);
      const snapshot = new Map(parcelIds.flatMap((id) => (keys.has(id) ? [[id, keys.get(id)!] as const] : [])));
      await findGate;
      return snapshot;
    },
    async destroy(parcelId) {
      keys.delete(parcelId);
      return { status: 'destroyed', erasedAt: new Date(0).toISOString() };
    },
    list: async () => [],
    count: async () => ({ active: keys.size, erased: 0 }),
    shred: async () => undefined,
    ping: async () => undefined,
    close: async () => undefined,
  };
  return { store, asked, keys, gate: (p: Promise<void> | undefined) => (findGate = p) };
}

describe('cachedKeyStore', () => {
  it('serves found and created keys from memory, asking the store only for the missing ones', async () => {
    const { store, asked } = memoryStore();
    const cache = cachedKeyStore(store);
    await cache.create('a');
    await store.create('b');
    expect([...(await cache.find(['a', 'b', 'c'])).keys()]).toEqual(['a', 'b']);
    expect(asked).toEqual(['b', 'c']);
    asked.length = 0;
    expect([...(await cache.find(['a', 'b'])).keys()]).toEqual(['a', 'b']);
    expect(asked).toEqual([]);
    // Absent keys are not cached: another process may create one.
    await cache.find(['c']);
    expect(asked).toEqual(['c']);
  });

  it('is bounded: the least recently used key goes first', async () => {
    const { store, asked } = memoryStore();
    const cache = cachedKeyStore(store, { capacity: 2 });
    for (const id of ['a', 'b', 'c']) await store.create(id);
    await cache.find(['a', 'b']);
    await cache.find(['a']); // a is now the most recent
    await cache.find(['c']); // evicts b
    expect(cache.cached).toBe(2);
    asked.length = 0;
    await cache.find(['a', 'b', 'c']);
    expect(asked).toEqual(['b']);
  });

  it('forgets keys older than maxAgeMs', async () => {
    const { store, asked } = memoryStore();
    let clock = 0;
    const cache = cachedKeyStore(store, { maxAgeMs: 1000, now: () => clock });
    await cache.create('a');
    clock = 1000;
    await cache.find(['a']);
    expect(asked).toEqual([]);
    clock = 1001;
    await cache.find(['a']);
    expect(asked).toEqual(['a']);
  });

  it('destroy evicts, and a find racing a destroy does not put the destroyed key back', async () => {
    const { store, gate } = memoryStore();
    const cache = cachedKeyStore(store);
    await cache.create('a');
    await cache.destroy('a');
    expect(cache.cached).toBe(0);
    expect((await cache.find(['a'])).size).toBe(0);

    await store.create('b');
    let open!: () => void;
    gate(new Promise<void>((resolve) => (open = resolve)));
    const racing = cache.find(['b']); // reads b's key, then waits
    await new Promise((resolve) => setImmediate(resolve));
    await cache.destroy('b');
    open();
    gate(undefined);
    await racing;
    expect(cache.cached).toBe(0);
    expect((await cache.find(['b'])).size).toBe(0);
  });

  it('refuses a capacity below 1', () => {
    expect(() => cachedKeyStore(memoryStore().store, { capacity: 0 })).toThrow('at least 1');
  });
});
