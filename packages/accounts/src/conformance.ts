/** The conformance suite of the account store port, run against every adapter, with the operator's actions on top. */
import { describe, expect, it } from '@jest/globals';
import { masterKeyFromBytes } from '@parcel-logistics/keys';
import type { Clock } from '@parcel-logistics/domain';
import { openAccountDirectory } from './directory.ts';
import type { AccountRecord } from './model.ts';
import { createAccount, issueKey, revokeKey, setDisabled, updateAccount } from './operator.ts';
import type { AccountStore } from './port.ts';
import { accountSecrets } from './secrets.ts';
import { seedAccounts } from './seed.ts';
import { openPerTest } from '@parcel-logistics/conformance';

export interface AccountStoreFixture {
  store: AccountStore;
  /** A second store on the same data (another gateway's). */
  reopen: () => Promise<AccountStore>;
  /** Every byte the store keeps at rest (its files, or its tables' rows as text). */
  atRest: () => Promise<Buffer[]>;
  cleanup: () => Promise<void>;
}

const AT = '2026-11-29T03:00:00.000Z';
const clock: Clock = { now: () => new Date(AT) };
const secrets = accountSecrets(masterKeyFromBytes(Buffer.alloc(32, 7)));
const settings = { weightUnit: 'kg' as const, serviceTypes: ['LMD'], canCancel: false };

export const accountOf = (apiName: string, over: Partial<AccountRecord> = {}): AccountRecord => ({
  apiName,
  clientId: `client-${apiName}`,
  settings,
  disabled: false,
  tokensValidAfter: 0,
  keys: [],
  createdAt: AT,
  updatedAt: AT,
  revision: 1,
  ...over,
});
const entry = (apiName: string, action: 'account.created' | 'account.updated' = 'account.created') => ({
  at: AT,
  actor: 'ops',
  action,
  apiName,
  detail: {},
});

export function accountStoreConformance(name: string, open: () => Promise<AccountStoreFixture>): void {
  describe(`account store conformance: ${name}`, () => {
    const start = openPerTest(open);

    it('writes a new account once: a second one of the same API name or client id is a conflict', async () => {
      const { store } = await start();
      const v0 = await store.version();
      expect(await store.put(accountOf('acme'), 0, entry('acme'))).toBe('written');
      expect(await store.put(accountOf('acme', { clientId: 'other' }), 0, entry('acme'))).toBe('conflict');
      expect(await store.put(accountOf('beta', { clientId: 'client-acme' }), 0, entry('beta'))).toBe('conflict');
      expect(await store.get('acme')).toEqual(accountOf('acme'));
      expect(await store.get('beta')).toBeUndefined();
      expect(await store.version()).toBe(v0 + 1);
      expect((await store.audit({ limit: 10 })).map((a) => a.apiName)).toEqual(['acme']);
    });

    it('changes an account only over the revision it was read at, and every change grows the version', async () => {
      const { store, reopen } = await start();
      await store.put(accountOf('acme'), 0, entry('acme'));
      const changed = accountOf('acme', { revision: 2, disabled: true });
      expect(await store.put(changed, 1, entry('acme', 'account.updated'))).toBe('written');
      expect(await store.put(accountOf('acme', { revision: 2 }), 1, entry('acme', 'account.updated'))).toBe('conflict');
      const other = await reopen();
      const read = await other.list();
      expect(read.accounts).toEqual([changed]);
      expect(read.version).toBe(await store.version());
      await other.close();
    });

    it('lists the audit newest first, a page at a time', async () => {
      const { store } = await start();
      for (const n of ['a', 'b', 'c', 'd', 'e']) await store.put(accountOf(n), 0, entry(n));
      const first = await store.audit({ limit: 2 });
      expect(first.map((a) => a.apiName)).toEqual(['e', 'd']);
      const second = await store.audit({ limit: 2, before: first[1]!.seq });
      expect(second.map((a) => a.apiName)).toEqual(['c', 'b']);
      expect(first[0]).toEqual({
        seq: first[0]!.seq,
        at: AT,
        actor: 'ops',
        action: 'account.created',
        apiName: 'e',
        detail: {},
      });
    });

    it('imports the seed on the first start only', async () => {
      const { store, reopen } = await start();
      const seed = [
        {
          clientId: 'demo',
          apiName: 'demo',
          apiKey: 'demo-secret',
          weightUnit: 'kg' as const,
          serviceTypes: [],
          canCancel: true,
        },
      ];
      expect(await seedAccounts({ store, secrets, clock }, seed)).toBe(true);
      const other = await reopen();
      expect(
        await seedAccounts({ store: other, secrets, clock }, [{ ...seed[0]!, apiName: 'again', clientId: 'again' }]),
      ).toBe(false);
      await other.close();
      const [demo] = (await store.list()).accounts;
      expect(demo?.apiName).toBe('demo');
      expect(secrets.open(demo!.keys[0]!.sealed, 'demo', demo!.keys[0]!.keyId)).toBe('demo-secret');
      expect((await store.audit({ limit: 5 })).map((a) => [a.actor, a.action])).toEqual([['seed', 'account.imported']]);
    });

    it('keeps the latest use of each key without a change of version', async () => {
      const { store } = await start();
      const v = await store.version();
      await store.touch(new Map([['key_1', '2026-11-29T03:00:01.000Z']]));
      await store.touch(
        new Map([
          ['key_1', '2026-11-29T03:00:00.500Z'],
          ['key_2', AT],
        ]),
      );
      expect(await store.lastUsed(['key_1', 'key_2', 'key_3'])).toEqual(
        new Map([
          ['key_1', '2026-11-29T03:00:01.000Z'],
          ['key_2', AT],
        ]),
      );
      expect(await store.version()).toBe(v);
    });

    it('serves the operator’s actions: a key rotation, a revocation, a disable, seen by a directory on another connection; no secret at rest', async () => {
      const { store, reopen, atRest } = await start();
      const deps = { store, secrets, clock };
      const created = await createAccount(deps, 'ops', { apiName: 'acme', settings });
      if (!created.ok) throw new Error(created.refusal);
      expect((await createAccount(deps, 'ops', { apiName: 'acme', settings })).ok).toBe(false);
      const second = await issueKey(deps, 'ops', 'acme');
      if (!second.ok) throw new Error(second.refusal);
      expect(await issueKey(deps, 'ops', 'acme')).toEqual({ ok: false, refusal: 'too-many-keys' });

      const other = await reopen();
      const directory = await openAccountDirectory({ store: other, secrets, refreshMs: 60_000 });
      expect(directory.byName('acme')?.keys.map((k) => k.secret)).toEqual([
        created.value.key.secret,
        second.value.secret,
      ]);

      await revokeKey(deps, 'ops', 'acme', created.value.key.keyId);
      expect(await revokeKey(deps, 'ops', 'acme', 'key_unknown')).toEqual({ ok: false, refusal: 'key-not-found' });
      await updateAccount(deps, 'ops', 'acme', { canCancel: true, rateLimitPerSecond: 5 });
      await directory.refresh();
      expect(directory.byName('acme')).toMatchObject({ canCancel: true, rateLimitPerSecond: 5 });
      expect(directory.byName('acme')?.keys.map((k) => k.keyId)).toEqual([second.value.keyId]);

      await updateAccount(deps, 'ops', 'acme', { rateLimitPerSecond: null });
      await setDisabled(deps, 'ops', 'acme', true);
      await directory.refresh();
      expect(directory.byName('acme')).toBeUndefined();
      expect(directory.byId('acme')).toBeUndefined();
      expect(directory.isDisabled('acme')).toBe(true);
      await setDisabled(deps, 'ops', 'acme', false);
      await directory.refresh();
      expect(directory.byName('acme')?.rateLimitPerSecond).toBeUndefined();
      expect(directory.byName('acme')?.tokensValidAfter).toBe(Date.parse(AT));
      await directory.stop();
      await other.close();

      expect((await store.audit({ limit: 20 })).map((a) => a.action).reverse()).toEqual([
        'account.created',
        'key.issued',
        'key.revoked',
        'account.updated',
        'account.updated',
        'account.disabled',
        'account.enabled',
      ]);
      const bytes = Buffer.concat(await atRest());
      for (const secret of [created.value.key.secret, second.value.secret]) {
        expect(bytes.includes(secret)).toBe(false);
        expect(bytes.includes(Buffer.from(secret, 'utf16le'))).toBe(false);
      }
    });
  });
}
