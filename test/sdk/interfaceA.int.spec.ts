/**
 * The client SDK, interface A: InterfaceAClient issues the bearer token with the first call
 * that needs it and reuses it; on "1003 Token error" (a newer token superseded it) it issues a new
 * one once and sends the call once more; wrong credentials come back as a value.
 */
import { InterfaceAClient, InterfaceBClient } from '@parcel-logistics/client';
import type { FetchLike } from '@parcel-logistics/client';
import { tokenFor } from '../support/client.ts';
import { startTestStack } from '../support/stack.ts';
import type { TestStack } from '../support/stack.ts';
import { optionsFor, order, recordingFetch, businessError } from './support.ts';

let stack: TestStack;
let tn: string;
let ref: string;
beforeAll(async () => {
  stack = await startTestStack();
  const body = order();
  const created = await new InterfaceBClient(optionsFor(stack)).createOrder(body);
  if (!created.ok) throw new Error(created.error.message);
  tn = created.data.wmg_tracking_num;
  ref = body.custom_tracking_num;
});
afterAll(() => stack.destroy());

const TOKEN = '/api/auth/token';
const LOOKUP = '/api/status/lookup';

function recordedClient() {
  const recorder = recordingFetch();
  return { recorder, client: new InterfaceAClient(optionsFor(stack, { fetch: recorder.fetch })) };
}

test('the token is issued with the first call and reused by the next ones: one token request for three calls', async () => {
  const { recorder, client } = recordedClient();
  const lookup = await client.lookUpStatus([tn]);
  expect(lookup.ok && lookup.data.Success.map((r) => r.TrackingNumber)).toEqual([tn]);
  expect(await client.lookUpTrackingNumber(ref)).toMatchObject({ ok: true, data: { TrackingNumber: tn } });
  const label = await client.createLabel({
    Barcode: tn,
    LabelType: 'CN23',
    Origin: 'SG',
    Destination: 'SG',
    Direction: 'vertical',
  });
  expect(label.ok && Buffer.from(label.data.Base64, 'base64').subarray(0, 5).toString('latin1')).toBe('%PDF-');
  expect(recorder.to(TOKEN)).toHaveLength(1);
  const bearers = recorder.sent.filter((s) => s.path !== TOKEN).map((s) => s.headers.authorization);
  expect(new Set(bearers).size).toBe(1);
  expect(bearers[0]).toMatch(/^Bearer \S+$/);
});

test('calls made together wait for one token rather than issue one each', async () => {
  const { recorder, client } = recordedClient();
  const results = await Promise.all([
    client.lookUpStatus([tn]),
    client.lookUpStatus([tn]),
    client.lookUpTrackingNumber(ref),
  ]);
  expect(results.map((r) => r.ok)).toEqual([true, true, true]);
  expect(recorder.to(TOKEN)).toHaveLength(1);
});

test('superseded by a newer token of the account, the next call gets 1003: the client issues a new token once and the call succeeds', async () => {
  const { recorder, client } = recordedClient();
  expect((await client.lookUpStatus([tn])).ok).toBe(true);
  await tokenFor(stack); // another party of the account
  const result = await client.lookUpStatus([tn]);
  expect(result.ok && result.data.Success).toHaveLength(1);
  expect(recorder.to(TOKEN)).toHaveLength(2);
  const lookups = recorder.to(LOOKUP);
  expect(lookups).toHaveLength(3);
  expect(lookups[1]!.headers.authorization).toBe(lookups[0]!.headers.authorization);
  expect(lookups[2]!.headers.authorization).not.toBe(lookups[1]!.headers.authorization);
});

test('a create-label refused with 1003 is sent again with the new token and the same Idempotency-Key', async () => {
  const { recorder, client } = recordedClient();
  expect((await client.lookUpStatus([tn])).ok).toBe(true);
  await tokenFor(stack);
  const result = await client.createLabel({ Barcode: tn, LabelType: 'CN23', Origin: 'SG', Destination: 'SG' });
  expect(result.ok).toBe(true);
  const keys = recorder.to('/api/create-label').map((s) => s.headers['idempotency-key']);
  expect(keys).toHaveLength(2);
  expect(keys[1]).toBe(keys[0]);
});

test('the new token is issued once only: when it is refused too, the 1003 comes back as a value', async () => {
  const recorder = recordingFetch();
  // Right after each token the client is given, another party of the account issues a newer one.
  const superseded: FetchLike = async (url, init) => {
    const response = await recorder.fetch(url, init);
    if (new URL(url).pathname === TOKEN) {
      await response.clone().text();
      await tokenFor(stack);
    }
    return response;
  };
  const client = new InterfaceAClient(optionsFor(stack, { fetch: superseded }));
  const result = await client.lookUpStatus([tn]);
  expect(result).toEqual({
    ok: false,
    error: businessError('Token error', 1003),
  });
  expect(recorder.to(TOKEN)).toHaveLength(2);
  expect(recorder.to(LOOKUP)).toHaveLength(2);
});

test('wrong credentials: the failure is a value with "Invalid credentials", and the call is not sent', async () => {
  const recorder = recordingFetch();
  const client = new InterfaceAClient(optionsFor(stack, { apiKey: 'not-the-key', fetch: recorder.fetch }));
  const result = await client.lookUpStatus([tn]);
  expect(result).toEqual({
    ok: false,
    error: businessError('Invalid credentials'),
  });
  expect(recorder.sent.map((s) => s.path)).toEqual([TOKEN]);
});

test('issueToken: the token it returns is the one the client then uses', async () => {
  const { recorder, client } = recordedClient();
  const issued = await client.issueToken();
  if (!issued.ok) throw new Error(issued.error.message);
  expect(issued.data).toMatchObject({ TokenType: 'Bearer', ExpiresIn: 86400 });
  expect((await client.lookUpStatus([tn])).ok).toBe(true);
  expect(recorder.to(LOOKUP)[0]!.headers.authorization).toBe(`Bearer ${issued.data.AccessToken}`);
  expect(recorder.to(TOKEN)).toHaveLength(1);
});

test('a token near its expiry is replaced before the call, not after a refusal', async () => {
  const { recorder, client } = recordedClient();
  expect((await client.lookUpStatus([tn])).ok).toBe(true);
  stack.clock.advance(86_400_000 - 30_000);
  expect((await client.lookUpStatus([tn])).ok).toBe(true);
  expect(recorder.to(TOKEN)).toHaveLength(2);
  expect(recorder.to(LOOKUP)).toHaveLength(2);
});

test('a short-lived token (PARCEL_TOKEN_TTL_S=30) is reused too, and replaced with a tenth of its life left', async () => {
  const shortLived = await startTestStack({ PARCEL_TOKEN_TTL_S: '30' });
  try {
    const recorder = recordingFetch();
    const client = new InterfaceAClient(optionsFor(shortLived, { fetch: recorder.fetch }));
    expect((await client.lookUpStatus(['PXB3X6H0NEVAZ2J9R9'])).ok).toBe(true);
    shortLived.clock.advance(26_000);
    expect((await client.lookUpStatus(['PXB3X6H0NEVAZ2J9R9'])).ok).toBe(true);
    expect(recorder.to(TOKEN)).toHaveLength(1);
    shortLived.clock.advance(1_000);
    expect((await client.lookUpStatus(['PXB3X6H0NEVAZ2J9R9'])).ok).toBe(true);
    expect(recorder.to(TOKEN)).toHaveLength(2);
    expect(recorder.to(LOOKUP)).toHaveLength(3);
  } finally {
    await shortLived.destroy();
  }
});
