/**
 * An in-process LRU cache of unwrapped data keys in front of a key store: a parcel's events are
 * read and written in bursts (create, label, carrier events), and each find would otherwise be a
 * round trip and an unwrap. Bounded in entries and in age; `destroy` evicts here. A destroy made
 * by another process is seen here when its erasure event passes (`evict`), or at the latest when
 * the entry ages out (`maxAgeMs`). Absent keys are not cached (another process may create one).
 */
import type { DataKey, KeyStore } from './port.ts';

export interface KeyCacheOptions {
  /** Most keys kept (default 10 000; a KeyObject is a few hundred bytes). */
  capacity?: number;
  /** Longest a key is served from the cache (default 60 000 ms). */
  maxAgeMs?: number;
  /** Milliseconds clock (tests). */
  now?: () => number;
}

export interface CachedKeyStore extends KeyStore {
  /** Keys held now (for metrics and tests). */
  readonly cached: number;
  /** Drops every cached key. */
  clear(): void;
  /** Drops one id's key: its destroy was made by another process (seen in the event log). */
  evict(parcelId: string): void;
}

export function cachedKeyStore(store: KeyStore, options: KeyCacheOptions = {}): CachedKeyStore {
  const capacity = options.capacity ?? 10_000;
  const maxAgeMs = options.maxAgeMs ?? 60_000;
  const now = options.now ?? Date.now;
  if (!(capacity >= 1)) throw new RangeError(`key cache capacity must be at least 1, got ${capacity}`);
  /** Insertion order is recency order: a hit moves its entry to the end. */
  const entries = new Map<string, { key: DataKey; at: number }>();
  /**
   * Bumped by every destroy: a find that started before one may return the key it read, but does
   * not cache it, so a destroy racing a find cannot leave a destroyed key in the cache.
   */
  let epoch = 0;

  const get = (parcelId: string): DataKey | undefined => {
    const entry = entries.get(parcelId);
    if (!entry) return undefined;
    entries.delete(parcelId);
    if (now() - entry.at > maxAgeMs) return undefined;
    entries.set(parcelId, entry);
    return entry.key;
  };
  const put = (key: DataKey): void => {
    entries.delete(key.parcelId);
    entries.set(key.parcelId, { key, at: now() });
    while (entries.size > capacity) entries.delete(entries.keys().next().value!);
  };

  return {
    get cached() {
      return entries.size;
    },
    clear() {
      entries.clear();
      epoch++;
    },
    evict(parcelId) {
      entries.delete(parcelId);
      epoch++;
    },
    async create(parcelId, createOptions) {
      // A key held here is the parcel's (a destroy evicts it): the store would answer `existing`.
      const held = createOptions?.renewErased ? undefined : get(parcelId);
      if (held) return { status: 'existing', key: held };
      const started = epoch;
      const result = await store.create(parcelId, createOptions);
      if (result.status !== 'erased' && started === epoch) put(result.key);
      return result;
    },
    async find(parcelIds) {
      const found = new Map<string, DataKey>();
      const missing: string[] = [];
      for (const id of parcelIds) {
        const key = get(id);
        if (key) found.set(id, key);
        else missing.push(id);
      }
      if (missing.length === 0) return found;
      const started = epoch;
      const loaded = await store.find(missing);
      for (const [id, key] of loaded) {
        found.set(id, key);
        if (started === epoch) put(key);
      }
      return found;
    },
    async destroy(parcelId) {
      epoch++;
      entries.delete(parcelId);
      try {
        return await store.destroy(parcelId);
      } finally {
        epoch++;
        entries.delete(parcelId);
      }
    },
    list: (listOptions) => store.list(listOptions),
    count: () => store.count(),
    shred: () => store.shred(),
    ping: () => store.ping(),
    async close() {
      entries.clear();
      await store.close();
    },
  };
}
