/**
 * The account store port: the accounts and the audit log, in the embedded SQLite database or in
 * PostgreSQL (shared by every gateway). A change and its audit entry are written together or not
 * at all; the store's version grows with every change, so a reader polls one number.
 */
import type { AccountRecord, AuditEntry } from './model.ts';

export type PutOutcome = 'written' | 'conflict';

export interface AuditPage {
  /** Entries with a smaller `seq` than this (the next page's cursor); absent: the newest. */
  before?: number;
  limit: number;
}

export interface AccountStore {
  /** Grows with every change of any account. */
  version(): Promise<number>;
  /** Every account and the version they were read at. */
  list(): Promise<{ version: number; accounts: AccountRecord[] }>;
  get(apiName: string): Promise<AccountRecord | undefined>;
  /**
   * Writes `next` (its `revision` one more than `expected`; `expected` 0: a new account) with its
   * audit entry. `conflict`: the stored revision is not `expected`, or a new account's API name or
   * client id is taken. The audit entry's `seq` is given by the store.
   */
  put(next: AccountRecord, expected: number, audit: Omit<AuditEntry, 'seq'>): Promise<PutOutcome>;
  /**
   * The accounts of the seed file, on the store's first start only: false (nothing written) when
   * a seed was imported before, even if its accounts were changed since.
   */
  seed(accounts: AccountRecord[], audit: Omit<AuditEntry, 'seq'>[]): Promise<boolean>;
  /** When keys were last used (not a change: the version stays). */
  touch(uses: ReadonlyMap<string, string>): Promise<void>;
  lastUsed(keyIds: readonly string[]): Promise<Map<string, string>>;
  /** Newest first. */
  audit(page: AuditPage): Promise<AuditEntry[]>;
  ping(): Promise<void>;
  close(): Promise<void>;
}
