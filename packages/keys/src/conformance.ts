/**
 * The key store conformance suite: every adapter runs it (`keyStoreConformance('sqlite', make)`).
 * `make` is called before each test and gives a fresh, empty store; `cleanup` runs after it.
 */
import { randomBytes } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { WrongMasterKeyError } from './errors.ts';
import { masterKeyFromBytes, type MasterKey } from './masterKey.ts';
import type { DataKey, KeyStore } from './port.ts';
import { seal, unseal } from './seal.ts';
import { WRAPPED_LENGTH } from './wrap.ts';

export interface KeyStoreHarness {
  store: KeyStore;
  masterKey: MasterKey;
  /** Opens the same data again under `masterKey`, after `store.close()`. */
  reopen(masterKey: MasterKey): Promise<KeyStore>;
  /**
   * The bytes the store keeps at rest, to scan: the contents of every file of a SQLite store; the
   * table's rows for a server the test cannot look into.
   */
  atRest(): Promise<Buffer[]>;
  /** Closes the stores opened (close is idempotent) and removes their data. */
  cleanup(): Promise<void>;
}

export const testMasterKey = (): MasterKey => {
  const bytes = randomBytes(32);
  try {
    return masterKeyFromBytes(bytes);
  } finally {
    bytes.fill(0);
  }
};

/** Test only: a key's bytes, to compare keys. */
const bytesOf = (key: DataKey): string => key.key.export().toString('hex');

const keyOf = async (store: KeyStore, parcelId: string): Promise<DataKey> => {
  const result = await store.create(parcelId);
  if (result.status === 'erased') throw new Error(`parcel ${parcelId} is erased`);
  return result.key;
};

const contains = (chunks: Buffer[], needle: Buffer): boolean => chunks.some((chunk) => chunk.includes(needle));

/** Every wrapped key in `chunks`: a version byte and the master key id start each. */
const wrappedKeysIn = (chunks: Buffer[], masterKey: MasterKey): Buffer[] => {
  const header = Buffer.concat([Buffer.from([1]), masterKey.idBytes]);
  const found: Buffer[] = [];
  for (const chunk of chunks) {
    for (let at = chunk.indexOf(header); at !== -1; at = chunk.indexOf(header, at + 1)) {
      found.push(Buffer.from(chunk.subarray(at, at + WRAPPED_LENGTH)));
    }
  }
  return found;
};

export function keyStoreConformance(name: string, make: () => Promise<KeyStoreHarness>): void {
  describe(`key store conformance: ${name}`, () => {
    let harness: KeyStoreHarness;
    let store: KeyStore;
    beforeEach(async () => {
      harness = await make();
      store = harness.store;
    });
    afterEach(async () => {
      await harness.cleanup();
    });

    it('creates a 256-bit secret key per parcel, and a second create answers the same key', async () => {
      const first = await store.create('PX-A');
      expect(first).toMatchObject({ status: 'created', key: { parcelId: 'PX-A', keyId: 'PX-A#1' } });
      if (first.status === 'erased') throw new Error('unreachable');
      expect(first.key.key.type).toBe('secret');
      expect(first.key.key.symmetricKeySize).toBe(32);
      const again = await store.create('PX-A');
      expect(again.status).toBe('existing');
      expect(bytesOf((again as { key: DataKey }).key)).toBe(bytesOf(first.key));
      expect(bytesOf(await keyOf(store, 'PX-B'))).not.toBe(bytesOf(first.key));
    });

    it('concurrent creates of one parcel make one key', async () => {
      const results = await Promise.all(Array.from({ length: 8 }, () => store.create('PX-RACE')));
      expect(results.filter((r) => r.status === 'created')).toHaveLength(1);
      expect(results.filter((r) => r.status === 'existing')).toHaveLength(7);
      expect(new Set(results.map((r) => bytesOf((r as { key: DataKey }).key))).size).toBe(1);
    });

    it('creates asked for together (new, existing, erased, repeated) are each answered as if alone', async () => {
      const existing = await keyOf(store, 'PX-OLD');
      await store.destroy('PX-GONE');
      const ids = ['PX-NEW-1', 'PX-OLD', 'PX-GONE', 'PX-NEW-2', 'PX-NEW-1'];
      const results = await Promise.all(ids.map((id) => store.create(id)));
      expect(results.map((r) => r.status)).toEqual(['created', 'existing', 'erased', 'created', 'existing']);
      expect(bytesOf((results[1] as { key: DataKey }).key)).toBe(bytesOf(existing));
      expect(bytesOf((results[4] as { key: DataKey }).key)).toBe(bytesOf((results[0] as { key: DataKey }).key));
      const found = await store.find(['PX-NEW-1', 'PX-NEW-2']);
      expect(bytesOf(found.get('PX-NEW-2')!)).toBe(bytesOf((results[3] as { key: DataKey }).key));
    });

    it('finds the keys of many parcels at once; absent ids are left out', async () => {
      const created = await Promise.all(['PX-1', 'PX-2', 'PX-3'].map((id) => keyOf(store, id)));
      const found = await store.find(['PX-3', 'PX-unknown', 'PX-1', 'PX-2', 'PX-1']);
      expect([...found.keys()].sort()).toEqual(['PX-1', 'PX-2', 'PX-3']);
      for (const key of created) {
        expect(found.get(key.parcelId)).toMatchObject({ parcelId: key.parcelId, keyId: key.keyId });
        // The key found opens what the key created sealed.
        const sealed = seal(key.key, 'Jane Doe, +65 9123 4567', `${key.parcelId}/name`);
        expect(unseal(found.get(key.parcelId)!.key, sealed, `${key.parcelId}/name`)).toBe('Jane Doe, +65 9123 4567');
      }
      expect((await store.find([])).size).toBe(0);
    });

    it('destroy removes the key for good, idempotently, and leaves a tombstone that create reports', async () => {
      await keyOf(store, 'PX-E');
      await keyOf(store, 'PX-KEPT');
      const destroyed = await store.destroy('PX-E');
      expect(destroyed).toEqual({ status: 'destroyed', erasedAt: expect.any(String) });
      expect(await store.destroy('PX-E')).toEqual({ status: 'already-erased', erasedAt: destroyed.erasedAt });
      expect([...(await store.find(['PX-E', 'PX-KEPT'])).keys()]).toEqual(['PX-KEPT']);
      expect(await store.create('PX-E')).toEqual({ status: 'erased', erasedAt: destroyed.erasedAt });
      expect((await store.find(['PX-E'])).size).toBe(0);
      expect(new Date(destroyed.erasedAt).toISOString()).toBe(destroyed.erasedAt);
    });

    it('destroy before any key writes a tombstone: the parcel never gets a key unless asked', async () => {
      expect(await store.destroy('PX-NEVER')).toMatchObject({ status: 'tombstoned' });
      expect(await store.create('PX-NEVER')).toMatchObject({ status: 'erased' });
      expect(await store.destroy('PX-NEVER')).toMatchObject({ status: 'already-erased' });
    });

    it('renewErased gives an erased parcel a new key of the next generation, not the old one', async () => {
      const old = await keyOf(store, 'PX-R');
      await store.destroy('PX-R');
      const renewed = await store.create('PX-R', { renewErased: true });
      expect(renewed).toMatchObject({ status: 'created', key: { parcelId: 'PX-R', keyId: 'PX-R#2' } });
      const found = (await store.find(['PX-R'])).get('PX-R')!;
      expect(found.keyId).toBe('PX-R#2');
      expect(bytesOf(found)).not.toBe(bytesOf(old));
      // Sealed under the destroyed key, a value stays unreadable under the new one.
      const sealed = seal(old.key, 'old address', 'PX-R/address');
      expect(() => unseal(found.key, sealed, 'PX-R/address')).toThrow('cannot unseal');
      expect(await store.create('PX-R', { renewErased: true })).toMatchObject({ status: 'existing' });
      await store.destroy('PX-NEW');
      expect(await store.create('PX-NEW', { renewErased: true })).toMatchObject({ key: { keyId: 'PX-NEW#1' } });
    });

    it('lists and counts keys for operations, without key material', async () => {
      for (const id of ['PX-c', 'PX-a', 'PX-d', 'PX-b']) await keyOf(store, id);
      await store.destroy('PX-b');
      await store.destroy('PX-e');
      expect(await store.count()).toEqual({ active: 3, erased: 2 });
      const first = await store.list({ limit: 2 });
      const rest = await store.list({ after: first.at(-1)!.parcelId, limit: 10 });
      expect([...first, ...rest].map((k) => [k.parcelId, k.state, k.generation])).toEqual([
        ['PX-a', 'active', 1],
        ['PX-b', 'erased', 1],
        ['PX-c', 'active', 1],
        ['PX-d', 'active', 1],
        ['PX-e', 'erased', 0],
      ]);
      for (const info of [...first, ...rest]) {
        expect(Object.keys(info).sort()).toEqual(
          info.state === 'erased'
            ? ['createdAt', 'erasedAt', 'generation', 'parcelId', 'state']
            : ['createdAt', 'generation', 'parcelId', 'state'],
        );
        expect(new Date(info.createdAt).toISOString()).toBe(info.createdAt);
      }
    });

    it('keeps keys and tombstones across a reopen', async () => {
      const key = await keyOf(store, 'PX-P');
      await store.destroy('PX-GONE');
      await store.close();
      store = await harness.reopen(harness.masterKey);
      expect(bytesOf((await store.find(['PX-P'])).get('PX-P')!)).toBe(bytesOf(key));
      expect(await store.create('PX-GONE')).toMatchObject({ status: 'erased' });
    });

    it('refuses to open under another master key, with an error naming the variables and both key ids', async () => {
      await keyOf(store, 'PX-W');
      await store.close();
      const other = testMasterKey();
      const error = await harness.reopen(other).then(
        async (opened) => {
          await opened.close();
          throw new Error('opened under the wrong master key');
        },
        (e: unknown) => e,
      );
      expect(error).toBeInstanceOf(WrongMasterKeyError);
      expect(error).toMatchObject({ expectedMasterKeyId: harness.masterKey.id, actualMasterKeyId: other.id });
      expect((error as Error).message).toMatch(/PARCEL_MASTER_KEY/);
    });

    it('keeps only wrapped keys at rest, and after destroy and shred not even those', async () => {
      const key = await keyOf(store, 'PX-S');
      const kept = await keyOf(store, 'PX-KEEP');
      const raw = [key.key.export(), kept.key.export()];
      let atRest = await harness.atRest();
      for (const bytes of raw) expect(contains(atRest, bytes)).toBe(false);
      // The control: the scan does find the wrapped keys, each unlike its raw key.
      const wrapped = wrappedKeysIn(atRest, harness.masterKey);
      const distinct = new Set(wrapped.map((w) => w.toString('hex')));
      expect(distinct.size).toBe(2);
      for (const bytes of raw) expect(wrapped.some((w) => w.includes(bytes))).toBe(false);

      await store.destroy('PX-S');
      await store.shred();
      atRest = await harness.atRest();
      const left = wrappedKeysIn(atRest, harness.masterKey);
      // What is left is PX-KEEP's key only: it still opens, and nothing else does.
      const leftDistinct = [...new Set(left.map((w) => w.toString('hex')))];
      expect(leftDistinct).toHaveLength(1);
      expect(distinct.has(leftDistinct[0]!)).toBe(true);
      expect((await store.find(['PX-KEEP'])).get('PX-KEEP')!.key.export().equals(kept.key.export())).toBe(true);
      for (const bytes of raw) expect(contains(atRest, bytes)).toBe(false);
    });

    it('refuses parcel ids no caller means', async () => {
      await expect(store.create('')).rejects.toThrow('invalid parcel id');
      await expect(store.destroy('a\0b')).rejects.toThrow('invalid parcel id');
    });
  });
}
