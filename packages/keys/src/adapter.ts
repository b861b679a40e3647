/** What the key store adapters share: making a data key with its wrapped form, opening a stored one, a listed key's info. */
import { createSecretKey } from 'node:crypto';
import type { MasterKey } from './masterKey.ts';
import { keyIdOf, type DataKey, type KeyInfo } from './port.ts';
import { freshKeyBytes } from './random.ts';
import { unwrapDataKey, wrapKeyBytes } from './wrap.ts';

/** The row name under which a store keeps the id of the master key it was created with. */
export const MASTER_KEY_ID = 'master_key_id';

export function newDataKey(masterKey: MasterKey, parcelId: string, generation: number) {
  const keyId = keyIdOf(parcelId, generation);
  const raw = freshKeyBytes();
  try {
    const dataKey: DataKey = { parcelId, keyId, key: createSecretKey(raw) };
    return { dataKey, wrapped: wrapKeyBytes(masterKey, keyId, raw) };
  } finally {
    raw.fill(0);
  }
}

export function openDataKey(masterKey: MasterKey, parcelId: string, generation: number, wrapped: Uint8Array): DataKey {
  const keyId = keyIdOf(parcelId, generation);
  return { parcelId, keyId, key: unwrapDataKey(masterKey, keyId, wrapped) };
}

/** Parcel ids are stored as given: refuse the ones no caller means (empty, huge, with NUL). */
export function checkParcelId(parcelId: string): void {
  if (typeof parcelId !== 'string' || parcelId.length === 0 || parcelId.length > 200 || parcelId.includes('\0')) {
    throw new TypeError(`invalid parcel id ${JSON.stringify(String(parcelId)).slice(0, 60)}`);
  }
}

/** A key's row as both stores read it, `active` when it still holds its key. */
export const keyInfoOf = (
  row: { parcel_id: string; generation: number; created_at: string; erased_at: string | null },
  active: boolean,
): KeyInfo => ({
  parcelId: row.parcel_id,
  generation: row.generation,
  state: active ? 'active' : 'erased',
  createdAt: row.created_at,
  ...(row.erased_at ? { erasedAt: row.erased_at } : {}),
});

/** The data keys of rows that hold theirs (a store's find), by parcel. */
export function openDataKeys(
  masterKey: MasterKey,
  rows: readonly { parcel_id: string; generation: number; wrapped: Uint8Array | null }[],
): Map<string, DataKey> {
  return new Map(
    rows.map((row) => [row.parcel_id, openDataKey(masterKey, row.parcel_id, row.generation, row.wrapped!)]),
  );
}
