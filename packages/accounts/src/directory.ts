/**
 * A gateway's view of the accounts: read whole from the store, kept in memory with each active key
 * opened once, and read again within `refreshMs` of any change (the store's version is polled), so
 * a change made through one gateway is seen by every other without a restart. Lookups are
 * synchronous: authentication costs no store call. When keys were used is gathered here and
 * written every `touchMs`.
 */
import { activeKeys } from './model.ts';
import type { Account, AccountRecord } from './model.ts';
import type { AccountStore } from './port.ts';
import type { AccountSecrets } from './secrets.ts';
import type { SeedAccount } from './seed.ts';

export interface AccountDirectory {
  /** The enabled account of this API name. */
  byName(apiName: string): Account | undefined;
  /** The enabled account of this client id. */
  byId(clientId: string): Account | undefined;
  /** The client's account is disabled (its webhooks wait). */
  isDisabled(clientId: string): boolean;
  /** The accounts with a retention of their own (`retentionDays`), disabled ones included: client id → days. */
  retentionDays(): ReadonlyMap<string, number>;
  /** A key authenticated a request now. */
  used(keyId: string, at: Date): void;
  /** Reads the store again now if it changed. */
  refresh(): Promise<void>;
  stop(): Promise<void>;
}

export interface DirectoryOptions {
  store: AccountStore;
  /** Without them the accounts carry no keys (a reader that only asks who is disabled). */
  secrets?: AccountSecrets;
  /** How often the store's version is polled; a change is seen within this. Default 1 s. */
  refreshMs?: number;
  /** How often the keys' last use is written. Default 10 s. */
  touchMs?: number;
  onError?: (error: unknown) => void;
}

export async function openAccountDirectory(options: DirectoryOptions): Promise<AccountDirectory> {
  const { store, secrets } = options;
  let version = -1;
  let byName = new Map<string, Account>();
  let byId = new Map<string, Account>();
  let disabled = new Set<string>();
  let retention = new Map<string, number>();
  /** Secrets opened before, by key id, with the sealed text they were opened from. */
  let opened = new Map<string, { sealed: string; secret: string }>();
  /** Key id → when it last authenticated, ms: kept as a number on the request path, written as text every `touchMs`. */
  let uses = new Map<string, number>();
  let lastTouch = Date.now();

  const open = (record: AccountRecord, nextOpened: typeof opened) =>
    secrets
      ? activeKeys(record).map(({ keyId, sealed }) => {
          const known = opened.get(keyId);
          const secret = known?.sealed === sealed ? known.secret : secrets.open(sealed, record.clientId, keyId);
          nextOpened.set(keyId, { sealed, secret });
          return { keyId, secret };
        })
      : [];

  /** One read at a time: a poll and a refresh asked for meanwhile wait for the read under way, then read again if need be. */
  let reading: Promise<void> = Promise.resolve();
  const load = (): Promise<void> => (reading = reading.then(read, read));

  async function read(): Promise<void> {
    const current = await store.version();
    if (current === version) return;
    const listed = await store.list();
    const nextOpened = new Map<string, { sealed: string; secret: string }>();
    const nextByName = new Map<string, Account>();
    const nextById = new Map<string, Account>();
    const nextDisabled = new Set<string>();
    const nextRetention = new Map<string, number>();
    for (const record of listed.accounts) {
      if (record.settings.retentionDays !== undefined)
        nextRetention.set(record.clientId, record.settings.retentionDays);
      if (record.disabled) {
        nextDisabled.add(record.clientId);
        continue;
      }
      const account: Account = {
        ...record.settings,
        clientId: record.clientId,
        apiName: record.apiName,
        keys: open(record, nextOpened),
        tokensValidAfter: record.tokensValidAfter,
      };
      nextByName.set(record.apiName, account);
      nextById.set(record.clientId, account);
    }
    [byName, byId, disabled, retention, opened, version] = [
      nextByName,
      nextById,
      nextDisabled,
      nextRetention,
      nextOpened,
      listed.version,
    ];
  }

  async function touch(): Promise<void> {
    if (uses.size === 0 || Date.now() - lastTouch < (options.touchMs ?? 10_000)) return;
    const written = uses;
    uses = new Map();
    lastTouch = Date.now();
    await store.touch(new Map([...written].map(([keyId, at]) => [keyId, new Date(at).toISOString()])));
  }

  await load();
  let stopped = false;
  let running: Promise<void> | undefined;
  const timer = setInterval(() => {
    // A store slower than the poll: no second tick piles up behind the first.
    if (running) return;
    running = Promise.all([load(), touch()])
      .then(
        () => undefined,
        (error: unknown) => options.onError?.(error),
      )
      .finally(() => (running = undefined));
  }, options.refreshMs ?? 1000);
  timer.unref();

  return {
    byName: (apiName) => byName.get(apiName),
    byId: (clientId) => byId.get(clientId),
    isDisabled: (clientId) => disabled.has(clientId),
    retentionDays: () => retention,
    used(keyId, at) {
      uses.set(keyId, at.getTime());
    },
    refresh: load,
    async stop() {
      if (stopped) return;
      stopped = true;
      clearInterval(timer);
      await running;
      lastTouch = 0;
      await touch().catch((error: unknown) => options.onError?.(error));
    },
  };
}

/** A fixed directory of the accounts file's accounts, their keys as given: for a gateway on its own (tests, benches). */
export function fixedDirectory(accounts: readonly SeedAccount[]): AccountDirectory {
  const served = accounts.map((a): Account => ({
    clientId: a.clientId,
    apiName: a.apiName,
    weightUnit: a.weightUnit,
    serviceTypes: a.serviceTypes,
    canCancel: a.canCancel,
    keys: [{ keyId: `key_${a.clientId}`, secret: a.apiKey }],
    tokensValidAfter: 0,
  }));
  const byName = new Map(served.map((a) => [a.apiName, a]));
  const byId = new Map(served.map((a) => [a.clientId, a]));
  return {
    byName: (apiName) => byName.get(apiName),
    byId: (clientId) => byId.get(clientId),
    isDisabled: () => false,
    retentionDays: () => new Map(),
    used: () => undefined,
    refresh: async () => undefined,
    stop: async () => undefined,
  };
}
