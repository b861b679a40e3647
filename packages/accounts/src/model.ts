/**
 * Client accounts as data (docs/operations.md): each account's settings, its API keys (sealed
 * under the master key at rest) and whether it is disabled. The operator API changes them; every
 * gateway reads them through an `AccountDirectory`.
 */
import type { WeightUnit } from '@parcel-logistics/domain';

/** What an operator sets per account. An absent optional setting takes the service's own. */
export interface AccountSettings {
  weightUnit: WeightUnit;
  /** The service types the account may order; empty: every type. */
  serviceTypes: string[];
  /** The account may cancel orders (interface B's cancel-orders). */
  canCancel: boolean;
  /** Batch create (B2) for this account; absent: `PARCEL_BATCH_CREATE`. */
  batchCreate?: boolean;
  /** Requests per second (the bucket's rate; its burst is twice that); absent: `PARCEL_RATE_LIMIT_RPS`. */
  rateLimitPerSecond?: number;
  /** Days personal data is kept after a parcel's final status; absent: `PARCEL_PERSONAL_DATA_RETENTION_DAYS`. */
  retentionDays?: number;
}

/** An API key as stored: its secret sealed, never in clear. */
export interface StoredKey {
  keyId: string;
  /** The secret, sealed under the accounts key derived from the master key (`AccountSecrets`). */
  sealed: string;
  /** The secret's last four characters, for telling keys apart in a listing. */
  hint: string;
  createdAt: string;
  /** Set once revoked: the key signs no more. */
  revokedAt?: string;
}

export interface AccountRecord {
  apiName: string;
  clientId: string;
  settings: AccountSettings;
  disabled: boolean;
  /** Bearer tokens issued before this time (ms since the epoch) are refused: set when the account is disabled. */
  tokensValidAfter: number;
  keys: StoredKey[];
  createdAt: string;
  updatedAt: string;
  /** Grows by one with every change; a change is written only over the revision it was made from. */
  revision: number;
}

/** One operator action, kept for good. */
export interface AuditEntry {
  /** Given by the store: grows with every entry. */
  seq: number;
  at: string;
  /** The operator who acted (the name of the admin token), or `seed` for the accounts file's import. */
  actor: string;
  action: AuditAction;
  /** The account acted on. */
  apiName: string;
  /** What changed, never a secret: the key id, the settings given. */
  detail: Record<string, unknown>;
}

export type AuditAction =
  | 'account.imported'
  | 'account.created'
  | 'account.updated'
  | 'account.disabled'
  | 'account.enabled'
  | 'key.issued'
  | 'key.revoked';

/** An account as a request is served for: settings, and its active keys' secrets in clear (memory only). */
export interface Account extends AccountSettings {
  clientId: string;
  apiName: string;
  /** The active keys; any of them authenticates (two during a rotation). */
  keys: readonly { keyId: string; secret: string }[];
  tokensValidAfter: number;
}

/** At most this many active keys per account: the current one and the one being rotated in. */
export const MAX_ACTIVE_KEYS = 2;

export const activeKeys = (record: AccountRecord): StoredKey[] => record.keys.filter((k) => !k.revokedAt);

/** An audit entry from a store's row (seq as the driver gives it, detail already parsed). */
export const auditEntryOf = (
  row: { seq: number | string; at: string; actor: string; action: AuditEntry['action']; api_name: string },
  detail: Record<string, unknown>,
): AuditEntry => ({
  seq: Number(row.seq),
  at: row.at,
  actor: row.actor,
  action: row.action,
  apiName: row.api_name,
  detail,
});
