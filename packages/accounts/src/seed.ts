/**
 * The accounts file (`PARCEL_ACCOUNTS_FILE`, the demo accounts by default) as the store's seed:
 * imported on the store's first start, each account with its key sealed, then never again: from
 * there on the operator API changes the accounts.
 */
import type { Clock } from '@parcel-logistics/domain';
import type { Account as AccountEntry } from '@parcel-logistics/reference-data';
import type { AccountRecord, AuditEntry } from './model.ts';
import type { AccountStore } from './port.ts';
import { hintOf, newKeyId } from './secrets.ts';
import type { AccountSecrets } from './secrets.ts';

/** An account of the file, its key in clear: what `loadAccounts` of reference-data reads. */
export type SeedAccount = AccountEntry;

/** Imports the file's accounts when the store never had a seed; true when this call did. */
export async function seedAccounts(
  deps: { store: AccountStore; secrets: AccountSecrets; clock: Clock },
  accounts: readonly SeedAccount[],
): Promise<boolean> {
  const at = deps.clock.now().toISOString();
  const records = accounts.map((a): AccountRecord => {
    const keyId = newKeyId();
    return {
      apiName: a.apiName,
      clientId: a.clientId,
      settings: { weightUnit: a.weightUnit, serviceTypes: a.serviceTypes, canCancel: a.canCancel },
      disabled: false,
      tokensValidAfter: 0,
      keys: [{ keyId, sealed: deps.secrets.seal(a.apiKey, a.clientId, keyId), hint: hintOf(a.apiKey), createdAt: at }],
      createdAt: at,
      updatedAt: at,
      revision: 1,
    };
  });
  const audit = records.map((r): Omit<AuditEntry, 'seq'> => ({
    at,
    actor: 'seed',
    action: 'account.imported',
    apiName: r.apiName,
    detail: { clientId: r.clientId, keyId: r.keys[0]!.keyId },
  }));
  return deps.store.seed(records, audit);
}
