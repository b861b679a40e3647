/**
 * Idempotent retries: every POST of both interfaces takes an
 * Idempotency-Key, scoped to the account; the same key with the same body within 24 h gets the
 * first answer again, byte for byte, without the work being done twice; another body is refused;
 * of concurrent requests with one key exactly one does the work; the keys survive a restart.
 */
import path from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { DEMO, OTHER, raw, signedHeaders, tokenFor } from './support/client.ts';
import type { Reply } from './support/client.ts';
import { orderBody } from './support/orders.ts';
import { startTestStack } from './support/stack.ts';
import type { TestStack } from './support/stack.ts';

let stack: TestStack;
beforeAll(async () => {
  stack = await startTestStack();
});
afterAll(() => stack.destroy());

let counter = 0;
const newKey = () => `key-${process.pid}-${Date.now().toString(36)}-${++counter}`;

interface Sent extends Reply {
  text: string;
}

async function postB(pathname: string, body: unknown, key?: string, account = DEMO): Promise<Sent> {
  const res = await fetch(`${stack.url}/v1/openapi/${pathname}`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      ...signedHeaders(stack, account.apiName, account.apiKey),
      ...(key === undefined ? {} : { 'idempotency-key': key }),
    },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, headers: res.headers, text, body: JSON.parse(text) };
}

async function postA(pathname: string, body: unknown, token: string | undefined, key?: string): Promise<Sent> {
  const res = await fetch(`${stack.url}/api/${pathname}`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      ...(token ? { authorization: `Bearer ${token}` } : {}),
      ...(key === undefined ? {} : { 'idempotency-key': key }),
    },
    body: JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, headers: res.headers, text, body: JSON.parse(text) };
}

const statusCodes = async (tn: string) =>
  (
    await raw(`${stack.url}/v1/openapi/order/query-status?tracking_num=${tn}`, { headers: signedHeaders(stack) })
  ).body.data.activities.map((a: { status_code: string }) => a.status_code);

describe('create-order with an Idempotency-Key', () => {
  test('a retry gets the first answer byte for byte, marked Idempotent-Replayed, and creates nothing more', async () => {
    const key = newKey();
    const body = orderBody();
    const first = await postB('order/create-order', body, key);
    expect(first.body.code).toBe(0);
    expect(first.headers.get('idempotent-replayed')).toBeNull();
    const again = await postB('order/create-order', body, key);
    expect(again.status).toBe(first.status);
    expect(again.text).toBe(first.text);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.headers.get('content-type')).toBe(first.headers.get('content-type'));
    // Without the key the same body is a second attempt at the reference: the work was done once.
    const unkeyed = await postB('order/create-order', body);
    expect(unkeyed.body.message).toBe(`custom_tracking_num (${body.custom_tracking_num}) already exist`);
  });

  test('the same key with another body, or on another path, is refused with a clear business error', async () => {
    const key = newKey();
    const body = orderBody();
    expect((await postB('order/create-order', body, key)).body.code).toBe(0);
    const other = await postB('order/create-order', { ...body, recipient_name: 'Someone Else' }, key);
    expect(other.status).toBe(200);
    expect(other.body).toEqual({
      code: 1,
      message: `Idempotency-Key (${key}) already used for a different request`,
      data: [],
    });
    const elsewhere = await postB('order/query-multi-status', { tracking_nums: [] }, key);
    expect(elsewhere.body).toEqual({
      code: 1,
      message: `Idempotency-Key (${key}) already used for a different request`,
      data: [],
    });
  });

  test('20 concurrent requests with one key: exactly one does the work, all get its answer', async () => {
    const key = newKey();
    const body = orderBody();
    const replies = await Promise.all(Array.from({ length: 20 }, () => postB('order/create-order', body, key)));
    const texts = new Set(replies.map((r) => r.text));
    expect(texts.size).toBe(1);
    expect(replies[0]!.body.code).toBe(0);
    expect(replies.filter((r) => r.headers.get('idempotent-replayed') === null)).toHaveLength(1);
  });

  test('keys belong to the account: another account with the same key and body does its own work', async () => {
    const key = newKey();
    const body = orderBody();
    const demo = await postB('order/create-order', body, key, DEMO);
    const other = await postB('order/create-order', body, key, OTHER);
    expect([demo.body.code, other.body.code]).toEqual([0, 0]);
    expect(other.body.data.wmg_tracking_num).not.toBe(demo.body.data.wmg_tracking_num);
  });

  test('a business error is kept too: the retry gets it again', async () => {
    const key = newKey();
    const bad = orderBody({ recipient_country: 'ZZ' });
    const first = await postB('order/create-order', bad, key);
    expect(first.body.message).toBe('recipient_country(ZZ) not allow');
    const again = await postB('order/create-order', bad, key);
    expect(again.text).toBe(first.text);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
  });

  test.each([
    ['empty', ''],
    ['256 characters', 'k'.repeat(256)],
    ['a space', 'two words'],
    ['non-ASCII', 'clé'],
  ])('a key that is %s answers "Idempotency-Key invalid" and does nothing', async (_what, key) => {
    const body = orderBody();
    const r = await postB('order/create-order', body, key);
    expect(r.body).toEqual({ code: 1, message: 'Idempotency-Key invalid', data: [] });
    expect((await postB('order/create-order', body)).body.code).toBe(0);
  });

  test('255 visible ASCII characters are a valid key', async () => {
    const key = '!~'.repeat(127) + 'k';
    const body = orderBody();
    const first = await postB('order/create-order', body, key);
    expect(first.body.code).toBe(0);
    expect((await postB('order/create-order', body, key)).text).toBe(first.text);
  });

  test('after 24 h the key is forgotten: the same request runs again', async () => {
    const key = newKey();
    const body = orderBody();
    const first = await postB('order/create-order', body, key);
    expect(first.body.code).toBe(0);
    stack.clock.advance(24 * 60 * 60 * 1000 + 1000);
    const later = await postB('order/create-order', body, key);
    expect(later.body.message).toBe(`custom_tracking_num (${body.custom_tracking_num}) already exist`);
  });
});

describe('the other POSTs', () => {
  test('cancel-orders: a retry answers what the first call did, not "Canceled"', async () => {
    const created = await postB('order/create-order', orderBody());
    const tn = created.body.data.wmg_tracking_num as string;
    await stack.caughtUp();
    const key = newKey();
    const first = await postB('order/cancel-orders', { tracking_nums: [tn] }, key);
    expect(first.body.data.success).toEqual([tn]);
    const again = await postB('order/cancel-orders', { tracking_nums: [tn] }, key);
    expect(again.text).toBe(first.text);
    expect((await postB('order/cancel-orders', { tracking_nums: [tn] })).body.data.errors).toEqual([
      { tracking_number: tn, remarks: 'Canceled' },
    ]);
  });

  test('interface A create-label: the retry gets the same PDF and records LB_GN once', async () => {
    const created = await postB('order/create-order', orderBody());
    const tn = created.body.data.wmg_tracking_num as string;
    const token = await tokenFor(stack);
    const key = newKey();
    const label = { Barcode: tn, LabelType: 'CN23', Origin: 'SG', Destination: 'SG' };
    const first = await postA('create-label', label, token, key);
    expect(first.body.Code).toBe(0);
    const again = await postA('create-label', label, token, key);
    expect(again.text).toBe(first.text);
    expect((await statusCodes(tn)).filter((c: string) => c === 'LB_GN')).toHaveLength(1);
  });

  test('token issuance: the retry gets the same token, which stays current; the store never holds it readable', async () => {
    const key = newKey();
    const credentials = { ApiName: 'other', ApiKey: 'other-secret' };
    const first = await postA('auth/token', credentials, undefined, key);
    const again = await postA('auth/token', credentials, undefined, key);
    expect(again.text).toBe(first.text);
    const token = first.body.Data.AccessToken as string;
    expect((await postA('status/lookup', { TrackingNumber: ['x'] }, token)).body.Code).toBe(0);
    const db = new DatabaseSync(path.join(stack.dataDir, 'projections.db'), { readOnly: true });
    try {
      const rows = db.prepare('SELECT fingerprint, answer_body FROM idempotency').all() as {
        fingerprint: string;
        answer_body: string | null;
      }[];
      expect(rows.length).toBeGreaterThan(0);
      for (const row of rows) {
        expect(row.answer_body ?? '').not.toContain(token);
        expect(Buffer.from(row.answer_body ?? '', 'base64').toString('latin1')).not.toContain(token);
      }
    } finally {
      db.close();
    }
  });

  test('wrong credentials are answered before the key is looked at', async () => {
    const key = newKey();
    const wrong = await postA('auth/token', { ApiName: 'demo', ApiKey: 'nope' }, undefined, key);
    expect(wrong.body).toEqual({ Code: 1, Message: 'Invalid credentials', Data: [] });
    const right = await postA('auth/token', { ApiName: 'demo', ApiKey: 'demo-secret' }, undefined, key);
    expect(right.body.Code).toBe(0);
  });
});

test('decisions.md restart: kept answers survive a restart of the process', async () => {
  let own = await startTestStack();
  try {
    const key = newKey();
    const body = orderBody();
    const send = () =>
      fetch(`${own.url}/v1/openapi/order/create-order`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'idempotency-key': key, ...signedHeaders(own) },
        body: JSON.stringify(body),
      }).then((r) => r.text());
    const first = await send();
    own = await own.restart();
    expect(await send()).toBe(first);
  } finally {
    await own.destroy();
  }
});
