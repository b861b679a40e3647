/**
 * What an operator does to accounts (the operator API's actions): each reads the account, makes
 * the change, and writes it with its audit entry over the revision it read, again on a conflict
 * with a concurrent change (another gateway's operator call).
 */
import type { Clock } from '@parcel-logistics/domain';
import { activeKeys, MAX_ACTIVE_KEYS } from './model.ts';
import type { AccountRecord, AccountSettings, AuditAction, StoredKey } from './model.ts';
import type { AccountStore } from './port.ts';
import { hintOf, newKeyId, newSecret } from './secrets.ts';
import type { AccountSecrets } from './secrets.ts';

export interface OperatorDeps {
  store: AccountStore;
  secrets: AccountSecrets;
  clock: Clock;
}

/** A key as issued: its secret is shown this once. */
export interface IssuedKey {
  keyId: string;
  secret: string;
  createdAt: string;
}

export type Refusal = 'account-not-found' | 'account-exists' | 'too-many-keys' | 'key-not-found';
export type Outcome<T> = { ok: true; value: T } | { ok: false; refusal: Refusal };

/** A settings change: a value sets it, `null` clears an optional setting back to the service's own. */
export type SettingsPatch = {
  [K in keyof AccountSettings]?: undefined extends AccountSettings[K] ? AccountSettings[K] | null : AccountSettings[K];
};

const ATTEMPTS = 5;

function issue(deps: OperatorDeps, clientId: string, at: string): { key: StoredKey; issued: IssuedKey } {
  const keyId = newKeyId();
  const secret = newSecret();
  return {
    key: { keyId, sealed: deps.secrets.seal(secret, clientId, keyId), hint: hintOf(secret), createdAt: at },
    issued: { keyId, secret, createdAt: at },
  };
}

/** A new account with its first key. */
export async function createAccount(
  deps: OperatorDeps,
  actor: string,
  input: { apiName: string; clientId?: string; settings: AccountSettings },
): Promise<Outcome<{ account: AccountRecord; key: IssuedKey }>> {
  const at = deps.clock.now().toISOString();
  const clientId = input.clientId ?? input.apiName;
  const { key, issued } = issue(deps, clientId, at);
  const account: AccountRecord = {
    apiName: input.apiName,
    clientId,
    settings: input.settings,
    disabled: false,
    tokensValidAfter: 0,
    keys: [key],
    createdAt: at,
    updatedAt: at,
    revision: 1,
  };
  const detail = { clientId, settings: input.settings, keyId: key.keyId };
  const outcome = await deps.store.put(account, 0, {
    at,
    actor,
    action: 'account.created',
    apiName: input.apiName,
    detail,
  });
  return outcome === 'written'
    ? { ok: true, value: { account, key: issued } }
    : { ok: false, refusal: 'account-exists' };
}

type Change<T> =
  | { write: AccountRecord; action: AuditAction; detail: Record<string, unknown>; value: T }
  | { done: T }
  | { refusal: Refusal };

/** Reads, changes and writes one account over the revision read, again on a conflict. */
async function change<T>(
  deps: OperatorDeps,
  actor: string,
  apiName: string,
  decide: (account: AccountRecord, at: string) => Change<T>,
): Promise<Outcome<T>> {
  for (let attempt = 1; ; attempt++) {
    const account = await deps.store.get(apiName);
    if (!account) return { ok: false, refusal: 'account-not-found' };
    const at = deps.clock.now().toISOString();
    const decided = decide(account, at);
    if ('refusal' in decided) return { ok: false, refusal: decided.refusal };
    if ('done' in decided) return { ok: true, value: decided.done };
    const next = { ...decided.write, updatedAt: at, revision: account.revision + 1 };
    const audit = { at, actor, action: decided.action, apiName, detail: decided.detail };
    if ((await deps.store.put(next, account.revision, audit)) === 'written') return { ok: true, value: decided.value };
    if (attempt === ATTEMPTS) throw new Error(`account ${apiName} changed ${ATTEMPTS} times under this change`);
  }
}

export function updateAccount(deps: OperatorDeps, actor: string, apiName: string, patch: SettingsPatch) {
  return change<AccountRecord>(deps, actor, apiName, (account) => {
    const settings: Record<string, unknown> = { ...account.settings };
    for (const [name, value] of Object.entries(patch)) {
      if (value === undefined) continue;
      if (value === null) delete settings[name];
      else settings[name] = value;
    }
    const write = { ...account, settings: settings as unknown as AccountSettings };
    return { write, action: 'account.updated', detail: { ...patch }, value: write };
  });
}

/** Disabling refuses the account's keys and every bearer token issued before; enabling lets its keys sign again. */
export function setDisabled(deps: OperatorDeps, actor: string, apiName: string, disabled: boolean) {
  return change<AccountRecord>(deps, actor, apiName, (account, at) => {
    if (account.disabled === disabled) return { done: account };
    const tokensValidAfter = disabled ? Date.parse(at) : account.tokensValidAfter;
    const write = { ...account, disabled, tokensValidAfter };
    return { write, action: disabled ? 'account.disabled' : 'account.enabled', detail: {}, value: write };
  });
}

/** A new key beside the active one (at most `MAX_ACTIVE_KEYS`), so a client rotates without a gap. */
export function issueKey(deps: OperatorDeps, actor: string, apiName: string) {
  return change<IssuedKey>(deps, actor, apiName, (account, at) => {
    if (activeKeys(account).length >= MAX_ACTIVE_KEYS) return { refusal: 'too-many-keys' };
    const { key, issued } = issue(deps, account.clientId, at);
    return {
      write: { ...account, keys: [...account.keys, key] },
      action: 'key.issued',
      detail: { keyId: key.keyId },
      value: issued,
    };
  });
}

/** Revokes a key and drops its sealed secret; a key revoked before stays so (no second entry). */
export function revokeKey(deps: OperatorDeps, actor: string, apiName: string, keyId: string) {
  return change<StoredKey>(deps, actor, apiName, (account, at) => {
    const key = account.keys.find((k) => k.keyId === keyId);
    if (!key) return { refusal: 'key-not-found' };
    if (key.revokedAt) return { done: key };
    const revoked: StoredKey = { keyId, sealed: '', hint: key.hint, createdAt: key.createdAt, revokedAt: at };
    const keys = account.keys.map((k) => (k.keyId === keyId ? revoked : k));
    return { write: { ...account, keys }, action: 'key.revoked', detail: { keyId }, value: revoked };
  });
}
