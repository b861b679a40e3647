/**
 * Repeated authentication failures slow down, then lock out, per API name and per address, on
 * both client interfaces and the operator API (docs/operations.md, "Failed authentication"). The
 * stack's clock is the test's: time passes only when the test says so. A locked-out attempt is
 * answered before its credentials are looked at, the same for a name that exists and one that
 * does not.
 */
import { clientB, DEMO, OTHER, raw } from '../support/client.ts';
import { startTestStack } from '../support/stack.ts';
import type { TestStack } from '../support/stack.ts';
import { ADMIN_ENV, adminClient } from './support.ts';

const MINUTE = 60_000;
let stack: TestStack;
beforeAll(async () => {
  stack = await startTestStack(ADMIN_ENV);
});
afterAll(() => stack.destroy());
// Counts end 15 minutes after their last failure: each test starts with none.
afterEach(() => stack.clock.advance(15 * MINUTE));

const stations = (account: { apiName: string; apiKey: string }) =>
  clientB(stack, account).get('station/get-stations', { zipcode: '238858' });
const token = (account: { apiName: string; apiKey: string }) =>
  raw(`${stack.url}/api/auth/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ ApiName: account.apiName, ApiKey: account.apiKey }),
  });
const LOCKED_B = { code: 1, message: 'Too many failed authentication attempts, try again later', data: [] };
const LOCKED_A = { Code: 1, Message: 'Too many failed authentication attempts, try again later', Data: [] };

describe('interface B signed headers', () => {
  test('five failures for a name are free; then each attempt waits twice as long after the last failure', async () => {
    const wrong = { ...DEMO, apiKey: 'wrong' };
    for (let i = 0; i < 5; i++) expect((await stations(wrong)).body.message).toBe('x-auth-token: INVALID');
    const slowed = await stations(DEMO);
    expect(slowed.status).toBe(429);
    expect(slowed.headers.get('retry-after')).toBe('1');
    expect(slowed.body).toEqual(LOCKED_B);
    // Another name from the same address is not slowed: the address has more room.
    expect((await stations(OTHER)).body.code).toBe(0);
    stack.clock.advance(1000);
    expect((await stations(wrong)).body.message).toBe('x-auth-token: INVALID');
    expect((await stations(DEMO)).headers.get('retry-after')).toBe('2');
    stack.clock.advance(2000);
    // The right key after the wait: it goes through and clears the name's count.
    expect((await stations(DEMO)).body.code).toBe(0);
    for (let i = 0; i < 5; i++) await stations(wrong);
    expect((await stations(DEMO)).status).toBe(429);
  });

  test('ten failures lock a name out for 15 minutes, with the same answer whether the name exists or not', async () => {
    const ghost = { apiName: 'ghost', apiKey: 'whatever' };
    const wrong = { ...DEMO, apiKey: 'wrong' };
    for (let i = 0; i < 10; i++) {
      stack.clock.advance(20_000);
      expect((await stations(wrong)).status).toBe(200);
      expect((await stations(ghost)).body.message).toBe('x-auth-name: INVALID');
    }
    const existing = await stations(DEMO);
    const unknown = await stations(ghost);
    expect(existing.status).toBe(429);
    expect([existing.status, existing.body, existing.headers.get('retry-after')]).toEqual([
      unknown.status,
      unknown.body,
      unknown.headers.get('retry-after'),
    ]);
    expect(existing.headers.get('retry-after')).toBe('900');
    stack.clock.advance(15 * MINUTE - 1000);
    expect((await stations(DEMO)).status).toBe(429);
    stack.clock.advance(1000);
    expect((await stations(DEMO)).body.code).toBe(0);
  });
});

describe('interface A token issuance', () => {
  test('ten wrong keys lock the name out; a locked-out attempt reads the same for a known and an unknown name', async () => {
    for (let i = 0; i < 10; i++) {
      stack.clock.advance(20_000);
      expect((await token({ ...OTHER, apiKey: 'wrong' })).body).toEqual({
        Code: 1,
        Message: 'Invalid credentials',
        Data: [],
      });
      expect((await token({ apiName: 'nobody', apiKey: 'x' })).body.Message).toBe('Invalid credentials');
    }
    const known = await token(OTHER);
    const unknown = await token({ apiName: 'nobody', apiKey: 'x' });
    expect(known.status).toBe(429);
    expect(known.body).toEqual(LOCKED_A);
    expect([unknown.status, unknown.body, unknown.headers.get('retry-after')]).toEqual([
      known.status,
      known.body,
      known.headers.get('retry-after'),
    ]);
    stack.clock.advance(15 * MINUTE);
    expect((await token(OTHER)).body.Code).toBe(0);
  });

  test('unknown bearer tokens count against the address: past its free failures it is slowed for everyone behind it', async () => {
    const lookup = (bearer: string) =>
      raw(`${stack.url}/api/status/lookup`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${bearer}` },
        body: JSON.stringify({ TrackingNumber: ['PX1'] }),
      });
    for (let i = 0; i < 20; i++) expect((await lookup(`guess-${i}`)).body.Code).toBe(1003);
    const slowed = await token(DEMO);
    expect(slowed.status).toBe(429);
    expect(slowed.body).toEqual(LOCKED_A);
    stack.clock.advance(1000);
    expect((await token(DEMO)).body.Code).toBe(0);
  });
});

describe('the operator API', () => {
  test('wrong admin tokens count against the address and lock it out, the right token included', async () => {
    const wrong = adminClient(stack.adminUrl!, 'w'.repeat(40));
    const right = adminClient(stack.adminUrl!);
    for (let i = 0; i < 40; i++) {
      stack.clock.advance(MINUTE);
      expect((await wrong.get('/accounts')).status).toBe(401);
    }
    const locked = await right.get('/accounts');
    expect(locked.status).toBe(429);
    expect(locked.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    expect(locked.body).toMatchObject({ type: 'urn:parcel-logistics:problem:locked', status: 429 });
    stack.clock.advance(15 * MINUTE);
    expect((await right.get('/accounts')).status).toBe(200);
  });
});
