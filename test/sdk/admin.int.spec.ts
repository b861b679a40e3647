/**
 * The SDK's AdminClient against the operator API of the embedded stack (its own port): a client
 * onboarded, its key rotated and the old one revoked, the account changed, disabled and enabled,
 * the audit log paged; failures come back as values carrying the problem document; reads are
 * retried, changes are not.
 */
import { AdminClient, InterfaceBClient } from '@parcel-logistics/client';
import { ADMIN_ENV, ADMIN_TOKEN } from '../accounts/support.ts';
import { startTestStack } from '../support/stack.ts';
import type { TestStack } from '../support/stack.ts';
import { optionsFor, recordingFetch } from './support.ts';

let stack: TestStack;
let admin: AdminClient;
beforeAll(async () => {
  stack = await startTestStack(ADMIN_ENV);
  admin = new AdminClient({ baseUrl: stack.adminUrl!, token: ADMIN_TOKEN });
});
afterAll(() => stack.destroy());

const stations = (apiName: string, apiKey: string) =>
  new InterfaceBClient(optionsFor(stack, { apiName, apiKey, retry: { maxAttempts: 1 } })).getStations('238858');

test('onboards a client whose key signs interface B at once; rotates and revokes its key; the answers are typed', async () => {
  const created = await admin.createAccount({ apiName: 'sdk-acme', serviceTypes: ['LMD'] });
  if (!created.ok) throw new Error(created.error.message);
  expect(created.status).toBe(201);
  expect(created.data.account).toMatchObject({
    apiName: 'sdk-acme',
    clientId: 'sdk-acme',
    weightUnit: 'kg',
    serviceTypes: ['LMD'],
    canCancel: false,
    disabled: false,
    activeKeys: 1,
  });
  const first = created.data.key;
  expect(first.secret).toMatch(/^plk_/);
  expect((await stations('sdk-acme', first.secret)).ok).toBe(true);

  const got = await admin.getAccount('sdk-acme');
  expect(got.ok && got.data.apiName).toBe('sdk-acme');
  const all = await admin.listAccounts();
  expect(all.ok && all.data.map((a) => a.apiName)).toEqual(['demo', 'other', 'sdk-acme']);

  const second = await admin.issueKey('sdk-acme');
  if (!second.ok) throw new Error(second.error.message);
  expect(second.status).toBe(201);
  const third = await admin.issueKey('sdk-acme');
  expect(third).toMatchObject({
    ok: false,
    error: {
      kind: 'problem',
      status: 409,
      message: 'Too many active keys: An account holds at most two active keys: revoke one first.',
      problem: { type: 'urn:parcel-logistics:problem:tooManyKeys', title: 'Too many active keys', status: 409 },
      attempts: 1,
    },
  });

  const revoked = await admin.revokeKey('sdk-acme', first.keyId);
  expect(revoked).toEqual({ ok: true, data: undefined, status: 204, attempts: 1 });
  expect((await stations('sdk-acme', first.secret)).ok).toBe(false);
  expect((await stations('sdk-acme', second.data.secret)).ok).toBe(true);
  const keys = await admin.listKeys('sdk-acme');
  expect(keys.ok && keys.data.map((k) => [k.keyId, k.state])).toEqual([
    [first.keyId, 'revoked'],
    [second.data.keyId, 'active'],
  ]);
  expect(JSON.stringify(keys)).not.toContain(second.data.secret);

  const unknownKey = await admin.revokeKey('sdk-acme', 'key_000000000000000000000000');
  expect(!unknownKey.ok && unknownKey.error.problem?.type).toBe('urn:parcel-logistics:problem:keyNotFound');
});

test('changes, disables and enables an account; the audit log holds it, newest first, a page at a time', async () => {
  await admin.createAccount({ apiName: 'sdk-beta' });
  const changed = await admin.updateAccount('sdk-beta', { rateLimitPerSecond: 9, batchCreate: true });
  expect(changed.ok && changed.data).toMatchObject({ rateLimitPerSecond: 9, batchCreate: true });
  const cleared = await admin.updateAccount('sdk-beta', { rateLimitPerSecond: null });
  expect(cleared.ok && cleared.data.rateLimitPerSecond).toBeUndefined();
  const disabled = await admin.disableAccount('sdk-beta');
  expect(disabled.ok && disabled.data.disabled).toBe(true);
  const enabled = await admin.enableAccount('sdk-beta');
  expect(enabled.ok && enabled.data.disabled).toBe(false);

  const page = await admin.audit({ limit: 3 });
  if (!page.ok) throw new Error(page.error.message);
  expect(page.data.entries.map((e) => `${e.actor} ${e.action} ${e.apiName}`)).toEqual([
    'ops account.enabled sdk-beta',
    'ops account.disabled sdk-beta',
    'ops account.updated sdk-beta',
  ]);
  const older = await admin.audit({ limit: 2, before: page.data.next! });
  expect(older.ok && older.data.entries.map((e) => e.action)).toEqual(['account.updated', 'account.created']);
  const everything = await admin.audit({ limit: 500 });
  expect(everything.ok && everything.data.next).toBeNull();
});

test('failures are values carrying the problem document: an invalid body, an unknown type, no account, a wrong token', async () => {
  // A field the API does not know: sent as is (a caller without the types), refused with each field named.
  const invalid = await admin.createAccount({ apiName: 'x1', colour: 'red' } as never);
  expect(invalid).toEqual({
    ok: false,
    error: {
      kind: 'problem',
      status: 400,
      message: 'Invalid request: /: unknown field(s): colour',
      problem: {
        type: 'urn:parcel-logistics:problem:invalidBody',
        title: 'Invalid request',
        status: 400,
        detail: '/: unknown field(s): colour',
        instance: '/admin/v1/accounts',
        errors: [{ pointer: '/', detail: 'unknown field(s): colour' }],
      },
      body: null,
      attempts: 1,
    },
  });
  const unknownType = await admin.updateAccount('demo', { serviceTypes: ['NOPE'] });
  expect(!unknownType.ok && [unknownType.error.status, unknownType.error.problem?.detail]).toEqual([
    422,
    'unknown service type(s): NOPE',
  ]);
  const missing = await admin.getAccount('nobody');
  expect(!missing.ok && missing.error.problem?.title).toBe('Account not found');
  // A name with a slash is one path segment, never another route.
  const slashed = await admin.getAccount('demo/keys');
  expect(!slashed.ok && slashed.error.status).toBe(404);

  const stranger = new AdminClient({ baseUrl: stack.adminUrl!, token: 'not-the-token-' + 'x'.repeat(32) });
  const refused = await stranger.listAccounts();
  expect(!refused.ok && refused.error).toMatchObject({
    kind: 'problem',
    status: 401,
    problem: { type: 'urn:parcel-logistics:problem:unauthorized' },
    attempts: 1,
  });
  await expect(stranger.audit()).resolves.toMatchObject({ ok: false, error: { status: 401 } });
});

test('reads are retried after a 503 that is not a problem document (a proxy’s); changes are sent once', async () => {
  const proxied = (first: number) =>
    recordingFetch({
      before: (_sent, index) =>
        index < first ? new Response('<html>Service Unavailable</html>', { status: 503 }) : undefined,
    });
  const read = proxied(1);
  const client = new AdminClient({
    baseUrl: stack.adminUrl!,
    token: ADMIN_TOKEN,
    fetch: read.fetch,
    sleep: async () => {},
  });
  const listed = await client.listAccounts();
  expect(listed.ok && listed.attempts).toBe(2);
  expect(read.sent.map((s) => s.status)).toEqual([503, 200]);
  expect(read.sent[1]!.headers.authorization).toBe(`Bearer ${ADMIN_TOKEN}`);

  const change = proxied(1);
  const changing = new AdminClient({ baseUrl: stack.adminUrl!, token: ADMIN_TOKEN, fetch: change.fetch });
  const outcome = await changing.disableAccount('demo');
  expect(outcome).toMatchObject({
    ok: false,
    error: { kind: 'http', status: 503, problem: null, body: '<html>Service Unavailable</html>', attempts: 1 },
  });
  expect(change.sent).toHaveLength(1);
  const demo = await admin.getAccount('demo');
  expect(demo.ok && demo.data.disabled).toBe(false);
});

test('no answer is a network failure, never an exception', async () => {
  const nowhere = new AdminClient({
    baseUrl: 'http://127.0.0.1:9',
    token: ADMIN_TOKEN,
    retry: { maxAttempts: 2 },
    sleep: async () => {},
  });
  const result = await nowhere.getAccount('demo');
  expect(result).toMatchObject({ ok: false, error: { kind: 'network', status: null, problem: null, attempts: 2 } });
  expect(!result.ok && result.error.message).toMatch(/^network error: fetch failed/);
});
