/**
 * Key store port: one data key per parcel, wrapped under the master key at rest, and destroyed
 * for good on erasure. A destroyed key leaves a tombstone (the parcel id and when, no key
 * material), so the parcel cannot silently get a new key: its old data stays unreadable, and new
 * data is written under a new key only when asked for explicitly (`renewErased`).
 */
import type { KeyObject } from 'node:crypto';

export interface DataKey {
  parcelId: string;
  /**
   * `<parcelId>#<generation>`: the first key of a parcel is generation 1; a key renewed after an
   * erasure is the next. The wrapped key is bound to it.
   */
  keyId: string;
  /** AES-256 secret key; its bytes never leave it except to be wrapped. */
  key: KeyObject;
}

export type CreateKeyResult =
  /** A new key (the first for the parcel, or a renewal after an erasure with `renewErased`). */
  | { status: 'created'; key: DataKey }
  /** The parcel already had a key: that one (a create is idempotent per parcel). */
  | { status: 'existing'; key: DataKey }
  /** The parcel's key was destroyed (or the parcel erased before it had one); no key is made. */
  | { status: 'erased'; erasedAt: string };

export interface CreateKeyOptions {
  /** Give an erased parcel a new key (a new generation) instead of answering `erased`. */
  renewErased?: boolean;
}

export type DestroyKeyResult =
  /** This call removed the key material. */
  | { status: 'destroyed'; erasedAt: string }
  /** An earlier call had: nothing changed. */
  | { status: 'already-erased'; erasedAt: string }
  /** The parcel had no key; a tombstone is written, so a later create answers `erased`. */
  | { status: 'tombstoned'; erasedAt: string };

/** A key's row for operations: never any key material, wrapped or not. */
export interface KeyInfo {
  parcelId: string;
  /** 0 for a tombstone written before the parcel ever had a key. */
  generation: number;
  state: 'active' | 'erased';
  /** ISO 8601 UTC: when the current generation was created (or the tombstone written). */
  createdAt: string;
  erasedAt?: string;
}

export interface KeyCounts {
  active: number;
  erased: number;
}

export interface KeyStore {
  /** The parcel's key, made on first call; see CreateKeyResult. Safe to call concurrently. */
  create(parcelId: string, options?: CreateKeyOptions): Promise<CreateKeyResult>;
  /** The keys of those of `parcelIds` that have one; an absent id was erased or never had a key. */
  find(parcelIds: readonly string[]): Promise<Map<string, DataKey>>;
  /** Removes the parcel's key material for good and leaves a tombstone. Idempotent. */
  destroy(parcelId: string): Promise<DestroyKeyResult>;
  /** Rows in parcel id order, after `after` (exclusive), at most `limit`. */
  list(options: { after?: string; limit: number }): Promise<KeyInfo[]>;
  count(): Promise<KeyCounts>;
  /**
   * Makes destroyed keys unrecoverable from the store's own files, as far as the store can (see
   * each adapter and the README). Run it after erasures: it is not cheap and takes locks.
   */
  shred(): Promise<void>;
  /** Store reachable (for /readyz). */
  ping(): Promise<void>;
  close(): Promise<void>;
}

export const keyIdOf = (parcelId: string, generation: number): string => `${parcelId}#${generation}`;
