/**
 * The operator API on `npm start`'s wiring (docs/operations.md): accounts made, changed, disabled
 * and enabled, keys issued, rotated and revoked, and each change seen at once by both client
 * interfaces; the audit log of it all; problem documents for what goes wrong.
 */
import { clientA, clientB, DEMO, raw, tokenFor } from '../support/client.ts';
import { orderBody } from '../support/orders.ts';
import { startTestStack } from '../support/stack.ts';
import type { TestStack } from '../support/stack.ts';
import { ADMIN_ENV, ADMIN_TOKEN, adminClient } from './support.ts';

let stack: TestStack;
let admin: ReturnType<typeof adminClient>;
beforeAll(async () => {
  stack = await startTestStack(ADMIN_ENV);
  admin = adminClient(stack.adminUrl!);
});
afterAll(() => stack.destroy());

const stations = (account: { apiName: string; apiKey: string }) =>
  clientB(stack, account).get('station/get-stations', { zipcode: '238858' });
const lookup = (token: string) => clientA(stack, token).post('status/lookup', { TrackingNumber: ['PX1'] });
const tokenReply = (account: { apiName: string; apiKey: string }) =>
  raw(`${stack.url}/api/auth/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ ApiName: account.apiName, ApiKey: account.apiKey }),
  });

describe('the operator API', () => {
  test('is served on its own port only: the client port answers /admin/v1/ as any unknown path', async () => {
    expect(stack.adminUrl).not.toBe(stack.url);
    const onClientPort = await raw(`${stack.url}/admin/v1/accounts`, {
      headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
    });
    expect(onClientPort.status).toBe(404);
    expect(onClientPort.body).toEqual({ code: 1, message: 'Api not found', data: [] });
  });

  test('refuses a missing or wrong bearer token with a 401 problem document', async () => {
    for (const client of [adminClient(stack.adminUrl!, ''), adminClient(stack.adminUrl!, 'x'.repeat(40))]) {
      const r = await client.get('/accounts');
      expect(r.status).toBe(401);
      expect(r.headers.get('content-type')).toMatch(/^application\/problem\+json/);
      expect(r.headers.get('www-authenticate')).toBe('Bearer realm="parcel-admin"');
      expect(r.body).toMatchObject({
        type: 'urn:parcel-logistics:problem:unauthorized',
        title: 'Unauthorized',
        status: 401,
      });
    }
  });

  test('lists the accounts of the accounts file, imported on first start, with no key in the answer', async () => {
    const r = await admin.get('/accounts');
    expect(r.status).toBe(200);
    expect(r.body.accounts.map((a: { apiName: string }) => a.apiName)).toEqual(['demo', 'other']);
    expect(JSON.stringify(r.body)).not.toContain('demo-secret');
    const keys = await admin.get('/accounts/demo/keys');
    expect(keys.body.keys).toEqual([
      {
        keyId: expect.stringMatching(/^key_[0-9a-f]{24}$/),
        masked: '••••cret',
        state: 'active',
        createdAt: expect.any(String),
      },
    ]);
  });

  test('answers a bad body with a 400 problem naming each field, never a 5xx', async () => {
    const unknownField = await admin.post('/accounts', { apiName: 'x1', colour: 'red' });
    expect(unknownField.status).toBe(400);
    expect(unknownField.body.errors).toEqual([{ pointer: '/', detail: 'unknown field(s): colour' }]);
    const wrongType = await admin.post('/accounts', { apiName: 'x1', canCancel: 'yes', weightUnit: 'stone' });
    expect(wrongType.body.errors.map((e: { pointer: string }) => e.pointer).sort()).toEqual([
      '/canCancel',
      '/weightUnit',
    ]);
    const badName = await admin.post('/accounts', { apiName: '../etc' });
    expect(badName.body.errors[0].pointer).toBe('/apiName');
    const notJson = await admin.post('/accounts', '{"apiName":');
    expect(notJson.status).toBe(400);
    expect(notJson.body).toMatchObject({ title: 'Invalid request', detail: 'The body is not valid JSON.' });
    const huge = await admin.post('/accounts', { apiName: 'x1', serviceTypes: ['A'.repeat(70_000)] });
    expect(huge.status).toBe(400);
    const unknownType = await admin.post('/accounts', { apiName: 'x1', serviceTypes: ['LMD', 'NOPE'] });
    expect(unknownType.status).toBe(422);
    expect(unknownType.body.detail).toBe('unknown service type(s): NOPE');
    expect((await admin.get('/accounts/x1')).status).toBe(404);
    expect((await admin.get('/nothing-here')).body.type).toBe('urn:parcel-logistics:problem:notFound');
  });

  test('onboards a client, rotates its key, revokes the old one, disables and enables the account; the audit log holds it all in order', async () => {
    const created = await admin.post('/accounts', { apiName: 'acme', serviceTypes: ['LMD'], canCancel: true });
    expect(created.status).toBe(201);
    expect(created.headers.get('location')).toBe('/admin/v1/accounts/acme');
    expect(created.body.account).toMatchObject({
      apiName: 'acme',
      clientId: 'acme',
      weightUnit: 'kg',
      disabled: false,
      activeKeys: 1,
    });
    const first = { apiName: 'acme', apiKey: created.body.key.secret as string };
    expect(first.apiKey).toMatch(/^plk_[A-Za-z0-9_-]{43}$/);
    expect((await admin.post('/accounts', { apiName: 'acme' })).status).toBe(409);

    // The new key signs interface B and gets interface A's token at once.
    expect((await stations(first)).body.code).toBe(0);
    const tokenBefore = await tokenFor(stack, first);
    expect((await lookup(tokenBefore)).body.Code).toBe(0);

    // A second key: both sign; a third is refused.
    const issued = await admin.post('/accounts/acme/keys');
    expect(issued.status).toBe(201);
    const second = { apiName: 'acme', apiKey: issued.body.secret as string };
    expect((await stations(first)).body.code).toBe(0);
    expect((await stations(second)).body.code).toBe(0);
    const third = await admin.post('/accounts/acme/keys');
    expect(third.status).toBe(409);
    expect(third.body.title).toBe('Too many active keys');

    // The old key revoked: it signs no more, on either interface; the new one does.
    const revoked = await admin.delete(`/accounts/acme/keys/${created.body.key.keyId}`);
    expect(revoked.status).toBe(204);
    expect((await stations(first)).body).toEqual({ code: 1, message: 'x-auth-token: INVALID', data: [] });
    expect((await tokenReply(first)).body).toEqual({ Code: 1, Message: 'Invalid credentials', Data: [] });
    expect((await stations(second)).body.code).toBe(0);
    expect((await admin.delete('/accounts/acme/keys/key_000000000000000000000000')).status).toBe(404);
    const listed = await admin.get('/accounts/acme/keys');
    expect(listed.body.keys.map((k: { state: string }) => k.state)).toEqual(['revoked', 'active']);
    expect(JSON.stringify(listed.body)).not.toContain(second.apiKey);
    expect(listed.body.keys[1].masked).toBe(`••••${second.apiKey.slice(-4)}`);

    // Settings change at once: the rate limit of this account alone.
    const patched = await admin.patch('/accounts/acme', { rateLimitPerSecond: 7, batchCreate: true });
    expect(patched.body).toMatchObject({ rateLimitPerSecond: 7, batchCreate: true });
    expect((await stations(second)).headers.get('ratelimit-limit')).toBe('14');
    // Batch create on for this account alone: the service's setting (off) still holds for the others.
    const batch = (account: { apiName: string; apiKey: string }) =>
      clientB(stack, account).post('order/create-orders', { orders: [orderBody()] });
    expect((await batch(second)).body.code).toBe(0);
    expect((await batch(DEMO)).body).toEqual({ code: 1, message: 'Api not found', data: [] });
    expect((await admin.patch('/accounts/acme', { rateLimitPerSecond: null })).body.rateLimitPerSecond).toBeUndefined();

    // Disabled: both interfaces refuse it as they refuse an unknown account, and the token issued before is dead.
    const tokenBeforeDisable = await tokenFor(stack, second);
    expect((await admin.post('/accounts/acme/disable')).body.disabled).toBe(true);
    expect((await stations(second)).body).toEqual({ code: 1, message: 'x-auth-name: INVALID', data: [] });
    expect((await tokenReply(second)).body).toEqual({ Code: 1, Message: 'Invalid credentials', Data: [] });
    expect((await lookup(tokenBeforeDisable)).body).toEqual({ Code: 1003, Message: 'Token error', Data: [] });

    // Enabled again: the key signs; the token issued before the disable stays dead, a new one works.
    expect((await admin.post('/accounts/acme/enable')).body.disabled).toBe(false);
    expect((await stations(second)).body.code).toBe(0);
    expect((await lookup(tokenBeforeDisable)).body.Code).toBe(1003);
    stack.clock.advance(1);
    expect((await lookup(await tokenFor(stack, second))).body.Code).toBe(0);

    const audit = await admin.get('/audit?limit=100');
    const acme = audit.body.entries
      .filter((e: { apiName: string }) => e.apiName === 'acme')
      .map((e: { actor: string; action: string }) => `${e.actor} ${e.action}`)
      .reverse();
    expect(acme).toEqual([
      'ops account.created',
      'ops key.issued',
      'ops key.revoked',
      'ops account.updated',
      'ops account.updated',
      'ops account.disabled',
      'ops account.enabled',
    ]);
    // Newest first, a page at a time.
    const page = await admin.get('/audit?limit=2');
    expect(page.body.entries.map((e: { action: string }) => e.action)).toEqual(['account.enabled', 'account.disabled']);
    const older = await admin.get(`/audit?limit=2&before=${page.body.next}`);
    expect(older.body.entries.map((e: { action: string }) => e.action)).toEqual(['account.updated', 'account.updated']);
    expect((await admin.get('/audit?limit=0')).status).toBe(400);
  });

  test('keeps when each key was last used, written as the gateway stops at the latest', async () => {
    const created = await admin.post('/accounts', { apiName: 'usage' });
    const key = { apiName: 'usage', apiKey: created.body.key.secret as string };
    expect((await stations(key)).body.code).toBe(0);
    const at = stack.clock.now().toISOString();
    stack = await stack.restart();
    admin = adminClient(stack.adminUrl!);
    const keys = await admin.get('/accounts/usage/keys');
    expect(keys.body.keys[0].lastUsedAt).toBe(at);
    // The account and its key outlived the restart.
    expect((await stations(key)).body.code).toBe(0);
  });
});
