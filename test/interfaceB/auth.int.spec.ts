import { createHash } from 'node:crypto';
import { signature } from '@parcel-logistics/gateway';
import { raw, signedHeaders } from '../support/client.ts';
import { startTestStack } from '../support/stack.ts';
import type { TestStack } from '../support/stack.ts';

let stack: TestStack;
beforeAll(async () => {
  stack = await startTestStack();
});
afterAll(() => stack.destroy());

const query = (headers: Record<string, string>) =>
  raw(`${stack.url}/v1/openapi/order/query-status?tracking_num=PX1`, { headers });

describe('Interface B authentication: "token = MD5 of the concatenation: API name in lower case, then the API key, then the seed string"', () => {
  test('a correct signature passes (the number is then simply not found)', async () => {
    const r = await query(signedHeaders(stack));
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ code: 1, message: 'fail', data: { tracking_number: 'PX1', remarks: 'No Record(s)' } });
  });

  test('the name is lower-cased for the digest: a signature over "DEMO" upper case fails', async () => {
    const seed = String(stack.clock.now().getTime());
    const upper = createHash('md5')
      .update('DEMO' + 'demo-secret' + seed)
      .digest('hex');
    expect((await query({ 'x-auth-name': 'demo', 'x-auth-seed': seed, 'x-auth-token': upper })).body.message).toBe(
      'x-auth-token: INVALID',
    );
    expect(signature('DeMo', 'k', '1')).toBe(signature('demo', 'k', '1'));
  });

  test.each([
    ['x-auth-name', 'x-auth-name: REQUIRED'],
    ['x-auth-seed', 'x-auth-seed: REQUIRED'],
    ['x-auth-token', 'x-auth-token: REQUIRED'],
  ])('decisions.md "missing header: x-auth-<name>: REQUIRED": without %s', async (header, message) => {
    const headers = signedHeaders(stack);
    delete headers[header];
    const r = await query(headers);
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ code: 1, message, data: [] });
  });

  test('decisions.md "Unknown name: x-auth-name: INVALID"', async () => {
    const seed = String(stack.clock.now().getTime());
    const r = await query({
      'x-auth-name': 'nobody',
      'x-auth-seed': seed,
      'x-auth-token': signature('nobody', 'x', seed),
    });
    expect(r.body).toEqual({ code: 1, message: 'x-auth-name: INVALID', data: [] });
  });

  test.each(['123', '17638011090000', 'abcdefghijklm', '1763801109.00'])(
    'decisions.md "seed not 13 digits: x-auth-seed: INVALID": %s',
    async (seed) => {
      const r = await query({
        'x-auth-name': 'demo',
        'x-auth-seed': seed,
        'x-auth-token': signature('demo', 'demo-secret', seed),
      });
      expect(r.body).toEqual({ code: 1, message: 'x-auth-seed: INVALID', data: [] });
    },
  );

  test('spec "The seed must be within plus or minus 10 minutes of server time": 10 min passes, 10 min + 1 s is TIMEOUT', async () => {
    const now = stack.clock.now().getTime();
    for (const [offset, ok] of [
      [-600_000, true],
      [600_000, true],
      [-601_000, false],
      [601_000, false],
    ] as const) {
      const seed = String(now + offset);
      const r = await query({
        'x-auth-name': 'demo',
        'x-auth-seed': seed,
        'x-auth-token': signature('demo', 'demo-secret', seed),
      });
      expect(r.body.message).toBe(ok ? 'fail' : 'x-auth-seed: TIMEOUT');
    }
  });

  test('decisions.md "bad digest: x-auth-token: INVALID": wrong key, upper-case hex, truncated', async () => {
    const seed = String(stack.clock.now().getTime());
    const good = signature('demo', 'demo-secret', seed);
    for (const token of [signature('demo', 'other-secret', seed), good.toUpperCase(), good.slice(0, 31), good + '0']) {
      const r = await query({ 'x-auth-name': 'demo', 'x-auth-seed': seed, 'x-auth-token': token });
      expect(r.body).toEqual({ code: 1, message: 'x-auth-token: INVALID', data: [] });
    }
  });

  test('"Request parameters and body do not take part": one signature serves different queries', async () => {
    const headers = signedHeaders(stack);
    for (const n of ['A', 'B']) {
      const r = await raw(`${stack.url}/v1/openapi/order/query-status?tracking_num=${n}`, { headers });
      expect(r.body.message).toBe('fail');
    }
  });
});
