/**
 * decisions.md "HTTP statuses", and bad input gets a clear error and loses nothing:
 * malformed JSON, non-object bodies, 6 MiB bodies, wrong types, `$` keys, huge and hostile strings.
 */
import { clientA, clientB, raw, signedHeaders, tokenFor } from './support/client.ts';
import { orderBody } from './support/orders.ts';
import { startTestStack } from './support/stack.ts';
import type { TestStack } from './support/stack.ts';

let stack: TestStack;
let token: string;
beforeAll(async () => {
  stack = await startTestStack();
  token = await tokenFor(stack);
});
afterAll(() => stack.destroy());

const postB = (path: string, body: string | Uint8Array<ArrayBuffer>) =>
  raw(`${stack.url}/v1/openapi/${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...signedHeaders(stack) },
    body,
  });
const postA = (path: string, body: string | Uint8Array<ArrayBuffer>) =>
  raw(`${stack.url}/api/${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
    body,
  });

async function alive() {
  const r = await raw(`${stack.url}/healthz`, {});
  expect(r.status).toBe(200);
}

describe('decisions.md "Not JSON, or a body that is not a JSON object: HTTP 400, envelope code 1, message Invalid JSON body"', () => {
  test.each(['{', '{"a":', 'nope', '', '[1,2]', '"string"', '42', 'null', 'true', '{"a":1}{"b":2}'])(
    'interface B body %j',
    async (body) => {
      const r = await postB('order/create-order', body);
      expect(r.status).toBe(400);
      expect(r.body).toEqual({ code: 1, message: 'Invalid JSON body', data: [] });
    },
  );

  test.each(['{', '[]', '"x"'])('interface A body %j uses the A envelope', async (body) => {
    const r = await postA('status/lookup', body);
    expect(r.status).toBe(400);
    expect(r.body).toEqual({ Code: 1, Message: 'Invalid JSON body', Data: [] });
  });
});

describe('decisions.md "Body over 5 MiB: HTTP 413, envelope code 1"', () => {
  test('6 MiB on interface B and A', async () => {
    const big = new Uint8Array(6 * 1024 * 1024).fill(97);
    const b = await postB('order/create-order', big);
    expect(b.status).toBe(413);
    expect(b.body).toMatchObject({ code: 1, data: [] });
    const a = await postA('status/lookup', big);
    expect(a.status).toBe(413);
    expect(a.body).toMatchObject({ Code: 1, Data: [] });
    await alive();
  });

  test('just under 5 MiB is read and answered normally', async () => {
    const pad = 'x'.repeat(5 * 1024 * 1024 - 200);
    const r = await postA('status/lookup', JSON.stringify({ TrackingNumber: ['MISS'], pad }));
    expect(r.status).toBe(200);
    expect(r.body.Code).toBe(0);
  });
});

describe('decisions.md "Unknown path: HTTP 404, envelope code 1, message Api not found"', () => {
  test.each([
    ['GET', '/v1/openapi/order/nope', { code: 1, message: 'Api not found', data: [] }],
    ['GET', '/nope', { code: 1, message: 'Api not found', data: [] }],
    ['POST', '/api/nope', { Code: 1, Message: 'Api not found', Data: [] }],
    ['GET', '/api/status/lookup', { Code: 1, Message: 'Api not found', Data: [] }],
    ['DELETE', '/v1/openapi/order/create-order', { code: 1, message: 'Api not found', data: [] }],
  ])('%s %s', async (method, path, envelope) => {
    const r = await raw(`${stack.url}${path}`, {
      method,
      headers: { 'content-type': 'application/json' },
      ...(method === 'POST' ? { body: '{}' } : {}),
    });
    expect(r.status).toBe(404);
    expect(r.body).toEqual(envelope);
  });
});

describe('Every endpoint answers wrong types, $ keys, huge and hostile strings with the envelope, never a 5xx', () => {
  const hostile: unknown[] = [
    null,
    true,
    0,
    -1,
    1e308,
    -1e308,
    1.5,
    '',
    ' ',
    'x'.repeat(10_000),
    '\u0000\u0001\u001f',
    '<script>alert(1)</script>',
    "'; DROP TABLE events; --",
    '{"$gt":""}',
    { $gt: '' },
    { $where: 'sleep(1000)' },
    [],
    [null],
    [{}],
    ['a'.repeat(10_000)],
    { a: { b: { c: [1] } } },
    '\u202e\ud83d\udce6',
    '__proto__',
  ];

  test('create-order: every field of the Order and item tables with every hostile value', async () => {
    const fields = Object.keys(orderBody()).concat([
      'service_type',
      'service_code',
      'cash',
      'cash_currency',
      'locker_type',
      'locker_station',
      'recipient_email',
      'incoterm_type',
      'gst_paid',
    ]);
    for (const field of fields) {
      for (const value of hostile) {
        const r = await clientB(stack).post('order/create-order', orderBody({ [field]: value }));
        expect(r.status).toBe(200);
        expect(typeof r.body.code).toBe('number');
        if (r.body.code !== 0) expect(r.body.data).toEqual([]);
      }
    }
    for (const field of [
      'description',
      'unitPrice',
      'quantity',
      'weight',
      'currency',
      'totalValue',
      'countryOfOrigin',
      'itemHSCode',
      'productURL',
    ]) {
      for (const value of hostile) {
        const base = orderBody();
        const item = { ...(base.item as Record<string, unknown>[])[0], [field]: value };
        const r = await clientB(stack).post('order/create-order', { ...base, item: [item] });
        expect(r.status).toBe(200);
        expect(typeof r.body.code).toBe('number');
      }
    }
    await alive();
  }, 120_000);

  test('$-prefixed and __proto__ keys are ignored, never stored', async () => {
    const body = orderBody();
    const json = JSON.stringify(body).replace(
      /}$/,
      ',"$set":{"clientId":"other"},"__proto__":{"polluted":true},"constructor":{"prototype":{"x":1}}}',
    );
    const r = await postB('order/create-order', json);
    expect(r.body.code).toBe(0);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    const status = await clientB(stack).get('order/query-status', { tracking_num: r.body.data.wmg_tracking_num });
    expect(status.body.code).toBe(0);
  });

  test('query and lookup endpoints with hostile values', async () => {
    for (const value of hostile) {
      for (const [path, body] of [
        ['order/query-multi-status', { tracking_nums: value }],
        ['order/query-multi-status', { tracking_nums: [value] }],
        ['order/create-orders', { orders: value }],
      ] as const) {
        const r = await clientB(stack).post(path, body);
        expect(r.status).toBe(200);
        expect(typeof r.body.code).toBe('number');
      }
      for (const [path, body] of [
        ['status/lookup', { TrackingNumber: value }],
        ['status/lookup', { TrackingNumber: [value] }],
        ['tracking-number', { Barcode: value }],
      ] as const) {
        const r = await clientA(stack, token).post(path, body);
        expect(r.status).toBe(200);
        expect(typeof r.body.Code).toBe('number');
      }
      const text = typeof value === 'string' ? value : JSON.stringify(value);
      for (const [path, key] of [
        ['order/query-status', 'tracking_num'],
        ['order/get-barcode', 'custom_tracking_num'],
      ] as const) {
        const r = await clientB(stack).get(path, { [key]: text });
        expect(r.status).toBe(200);
        // `__proto__` is a well-formed reference: the create-order test above made an order with it.
        const created = path === 'order/get-barcode' && text === '__proto__';
        expect([path, text, r.body.code]).toEqual([path, text, created ? 0 : 1]);
      }
      const auth = await raw(`${stack.url}/api/auth/token`, {
        method: 'POST',
        body: JSON.stringify({ ApiName: value, ApiKey: value }),
      });
      expect(auth.status).toBe(200);
      expect(auth.body.Code).toBe(1);
    }
    await alive();
  }, 60_000);

  test('hostile header values are authentication failures, not crashes', async () => {
    for (const headers of [
      { 'x-auth-name': 'demo', 'x-auth-seed': '9'.repeat(400), 'x-auth-token': 'x' },
      { 'x-auth-name': '%00', 'x-auth-seed': '1', 'x-auth-token': '1' },
      { 'x-auth-name': 'demo', 'x-auth-seed': String(stack.clock.now().getTime()), 'x-auth-token': 'é'.repeat(16) },
    ]) {
      const r = await raw(`${stack.url}/v1/openapi/order/query-status?tracking_num=x`, { headers });
      expect(r.status).toBe(200);
      expect(r.body.code).toBe(1);
    }
  });

  test('no error response leaks a stack trace or an HTML page', async () => {
    for (const r of [
      await postB('order/create-order', '{'),
      await raw(`${stack.url}/x`, {}),
      await postA('status/lookup', '['),
    ]) {
      expect(r.headers.get('content-type')).toMatch(/application\/json/);
      expect(JSON.stringify(r.body)).not.toMatch(/at .*\.ts:\d+|<html|Error:/i);
    }
  });
});

describe('decisions.md "Over an account\'s rate limit: HTTP 429 with Retry-After"', () => {
  test('a burst over the limit gets 429 with Retry-After, other accounts are unaffected', async () => {
    const limited = await startTestStack({ PARCEL_RATE_LIMIT_RPS: '1', PARCEL_RATE_LIMIT_BURST: '3' });
    try {
      const codes: number[] = [];
      for (let i = 0; i < 5; i++)
        codes.push((await clientB(limited).get('order/query-status', { tracking_num: 'x' })).status);
      expect(codes).toEqual([200, 200, 200, 429, 429]);
      const r = await clientB(limited).get('order/query-status', { tracking_num: 'x' });
      expect(r.headers.get('retry-after')).toBe('1');
      expect(r.body).toEqual({ code: 1, message: 'Too many requests', data: [] });
      expect(
        (
          await clientB(limited, { apiName: 'other', apiKey: 'other-secret' }).get('order/query-status', {
            tracking_num: 'x',
          })
        ).status,
      ).toBe(200);
      limited.clock.advance(1000);
      expect((await clientB(limited).get('order/query-status', { tracking_num: 'x' })).status).toBe(200);
    } finally {
      await limited.destroy();
    }
  });
});
