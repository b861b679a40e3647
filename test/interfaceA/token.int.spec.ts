import { clientA, DEMO, raw, tokenFor } from '../support/client.ts';
import { startTestStack } from '../support/stack.ts';
import type { TestStack } from '../support/stack.ts';

let stack: TestStack;
beforeAll(async () => {
  stack = await startTestStack({ PARCEL_TOKEN_TTL_S: '3600' });
});
afterAll(() => stack.destroy());

const issue = (body: unknown) =>
  raw(`${stack.url}/api/auth/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
const lookup = (token: string | undefined) => clientA(stack, token).post('status/lookup', { TrackingNumber: ['X'] });

describe('Interface A token issuance (decisions.md POST /api/auth/token)', () => {
  test('Success: Code 0, Message Success, Data {AccessToken, TokenType Bearer, ExpiresIn, ExpiresAt in SGT}', async () => {
    const r = await issue({ ApiName: 'demo', ApiKey: 'demo-secret' });
    expect(r.body).toEqual({
      Code: 0,
      Message: 'Success',
      Data: {
        AccessToken: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/),
        TokenType: 'Bearer',
        ExpiresIn: 3600,
        ExpiresAt: '2026-11-22T15:05:09+08:00',
      },
    });
  });

  test.each([
    [{ ApiName: 'demo', ApiKey: 'wrong' }],
    [{ ApiName: 'nobody', ApiKey: 'demo-secret' }],
    [{ ApiName: 'demo', ApiKey: 'other-secret' }],
  ])('"Wrong credentials: Code 1, Message Invalid credentials, Data []": %j', async (body) => {
    expect((await issue(body)).body).toEqual({ Code: 1, Message: 'Invalid credentials', Data: [] });
  });

  test('missing fields are named', async () => {
    expect((await issue({ ApiKey: 'x' })).body).toEqual({ Code: 1, Message: 'ApiName require', Data: [] });
    expect((await issue({ ApiName: 'demo' })).body).toEqual({ Code: 1, Message: 'ApiKey require', Data: [] });
  });
});

describe('spec Authentication A: "A missing, expired, or superseded token returns Code 1003, Message Token error"', () => {
  const tokenError = { Code: 1003, Message: 'Token error', Data: [] };

  test('missing, malformed and unknown tokens', async () => {
    expect((await lookup(undefined)).body).toEqual(tokenError);
    expect((await lookup('not-a-token')).body).toEqual(tokenError);
    const r = await raw(`${stack.url}/api/status/lookup`, {
      method: 'POST',
      headers: { authorization: 'Basic abc' },
      body: '{}',
    });
    expect(r.body).toEqual(tokenError);
  });

  test('"a newer login invalidates the older token"', async () => {
    const first = await tokenFor(stack, DEMO);
    expect((await lookup(first)).body.Code).toBe(0);
    const second = await tokenFor(stack, DEMO);
    expect((await lookup(first)).body).toEqual(tokenError);
    expect((await lookup(second)).body.Code).toBe(0);
  });

  test('expired: valid until ExpiresAt, Token error after it', async () => {
    const token = await tokenFor(stack, DEMO);
    stack.clock.advance(3599_000);
    expect((await lookup(token)).body.Code).toBe(0);
    stack.clock.advance(1_000);
    expect((await lookup(token)).body).toEqual(tokenError);
  });

  test('the token is checked before the body: a bad token with a bad body is still Token error', async () => {
    expect((await clientA(stack, 'nope').post('status/lookup', { TrackingNumber: 'x' })).body).toEqual(tokenError);
  });
});
