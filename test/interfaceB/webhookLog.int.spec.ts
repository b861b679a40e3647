/**
 * The delivery log and replay over interface B: another account's endpoint id reads
 * as missing in every new operation ("tenant isolation"), and bad input of each is answered in the
 * B envelope with its documented message, never a 5xx. Unknown fields are ignored, as in every B
 * operation. Delivery itself is tested in test/webhooks/log.int.spec.ts.
 */
import { clientB, OTHER, signedHeaders } from '../support/client.ts';
import { startTestStack } from '../support/stack.ts';
import type { TestStack } from '../support/stack.ts';

let stack: TestStack;
let id = '';
beforeAll(async () => {
  // The webhook service looks for work once at start and then hourly: a replay asked for here stays `requested`.
  stack = await startTestStack({
    PARCEL_WEBHOOK_REPLAY_MAX_AGE_MS: String(2 * 24 * 60 * 60 * 1000),
    PARCEL_WEBHOOK_POLL_MS: '3600000',
  });
  const created = await clientB(stack).post('webhook/create-endpoint', {
    url: 'https://hooks.example.com/parcel',
    event_types: ['ParcelRegistered'],
  });
  id = created.body.data.endpoint_id;
});
afterAll(() => stack.destroy());

const fail = (message: string) => ({ code: 1, message, data: [] });
const notFound = fail('Webhook endpoint not found');
// The test stack's clock reads 2026-11-22T06:05:09Z.
const NOW = '2026-11-22T14:05:09+08:00';

describe('"tenant isolation (another account’s endpoint id reads as not found)"', () => {
  test('in every operation of the log, redelivery and replay', async () => {
    const other = clientB(stack, OTHER);
    const sent = await clientB(stack).post('webhook/send-test-event', { endpoint_id: id });
    const replay = await clientB(stack).post('webhook/replay', { endpoint_id: id, since: NOW });
    expect(replay.body.code).toBe(0);
    expect((await other.get('webhook/list-messages', { endpoint_id: id })).body).toEqual(notFound);
    expect((await other.get('webhook/list-attempts', { endpoint_id: id })).body).toEqual(notFound);
    expect(
      (await other.post('webhook/redeliver', { endpoint_id: id, event_id: sent.body.data.event_id })).body,
    ).toEqual(notFound);
    expect((await other.post('webhook/replay', { endpoint_id: id, since: NOW })).body).toEqual(notFound);
    expect(
      (await other.get('webhook/get-replay', { endpoint_id: id, replay_id: replay.body.data.replay_id })).body,
    ).toEqual(notFound);
    // The owner sees them.
    const mine = await clientB(stack).get('webhook/list-messages', { endpoint_id: id });
    expect(mine.body.data.messages.map((m: { event_id: string }) => m.event_id)).toContain(sent.body.data.event_id);
    expect(
      (await clientB(stack).get('webhook/get-replay', { endpoint_id: id, replay_id: replay.body.data.replay_id })).body
        .code,
    ).toBe(0);
  });
});

describe('"validation errors of each new operation’s input … give the documented envelope, never a 5xx"', () => {
  test.each([
    [{}, 'endpoint_id require'],
    [{ endpoint_id: ' ' }, 'endpoint_id require'],
    [{ endpoint_id: 'x'.repeat(65) }, 'endpoint_id invalid'],
    [{ endpoint_id: 'we_000000000000000000000000' }, 'Webhook endpoint not found'],
    [{ endpoint_id: 'ID', limit: '0' }, 'limit invalid'],
    [{ endpoint_id: 'ID', limit: '101' }, 'limit invalid'],
    [{ endpoint_id: 'ID', limit: 'ten' }, 'limit invalid'],
    [{ endpoint_id: 'ID', limit: '1.5' }, 'limit invalid'],
    [{ endpoint_id: 'ID', cursor: '!' }, 'cursor invalid'],
    [{ endpoint_id: 'ID', cursor: 'x'.repeat(257) }, 'cursor invalid'],
  ])('list-messages and list-attempts refuse %j with "%s"', async (query, message) => {
    const q = Object.fromEntries(Object.entries(query).map(([k, v]) => [k, v === 'ID' ? id : v]));
    expect(await clientB(stack).get('webhook/list-messages', q)).toMatchObject({ status: 200, body: fail(message) });
    expect(await clientB(stack).get('webhook/list-attempts', q)).toMatchObject({ status: 200, body: fail(message) });
  });

  test('a repeated query parameter is invalid; list-attempts’ event_id must not be blank', async () => {
    const repeated = await fetch(`${stack.url}/v1/openapi/webhook/list-messages?endpoint_id=${id}&endpoint_id=${id}`, {
      headers: signedHeaders(stack),
    });
    expect(await repeated.json()).toEqual(fail('endpoint_id invalid'));
    expect((await clientB(stack).get('webhook/list-attempts', { endpoint_id: id, event_id: ' ' })).body).toEqual(
      fail('event_id require'),
    );
  });

  test.each([
    [{}, 'endpoint_id require'],
    [{ endpoint_id: 7, event_id: 'e' }, 'endpoint_id invalid'],
    [{ endpoint_id: 'ID' }, 'event_id require'],
    [{ endpoint_id: 'ID', event_id: '' }, 'event_id require'],
    [{ endpoint_id: 'ID', event_id: 5 }, 'event_id invalid'],
    [{ endpoint_id: 'ID', event_id: 'e'.repeat(65) }, 'event_id invalid'],
    [{ endpoint_id: 'ID', event_id: '00000000-0000-4000-8000-000000000000' }, 'Webhook message not found'],
    [{ endpoint_id: 'ID', event_id: '00000000-0000-4000-8000-000000000000', extra: true }, 'Webhook message not found'],
  ])('redeliver refuses %j with "%s"', async (body, message) => {
    const input = Object.fromEntries(Object.entries(body).map(([k, v]) => [k, v === 'ID' ? id : v]));
    expect(await clientB(stack).post('webhook/redeliver', input)).toMatchObject({ status: 200, body: fail(message) });
  });

  test.each([
    [{ since: NOW }, 'endpoint_id require'],
    [{ endpoint_id: 'ID' }, 'since require'],
    [{ endpoint_id: 'ID', since: ' ' }, 'since require'],
    [{ endpoint_id: 'ID', since: 1795476000 }, 'since invalid'],
    [{ endpoint_id: 'ID', since: '2026-11-22' }, 'since invalid'],
    [{ endpoint_id: 'ID', since: '2026-11-22T14:05:09' }, 'since invalid'],
    [{ endpoint_id: 'ID', since: '2026-11-22T14:05+08:00' }, 'since invalid'],
    [{ endpoint_id: 'ID', since: '2026-13-45T14:05:09+08:00' }, 'since invalid'],
    [{ endpoint_id: 'ID', since: 'yesterday' }, 'since invalid'],
    [{ endpoint_id: 'ID', since: '2026-11-20T14:05:08+08:00' }, 'since must be within the last 2 days'],
    [{ endpoint_id: 'we_000000000000000000000000', since: NOW }, 'Webhook endpoint not found'],
  ])('replay refuses %j with "%s"', async (body, message) => {
    const input = Object.fromEntries(Object.entries(body).map(([k, v]) => [k, v === 'ID' ? id : v]));
    expect(await clientB(stack).post('webhook/replay', input)).toMatchObject({ status: 200, body: fail(message) });
  });

  test('one replay per endpoint at a time; unknown fields are ignored', async () => {
    const created = await clientB(stack).post('webhook/create-endpoint', {
      url: 'https://hooks.example.com/other',
      event_types: ['ParcelRegistered'],
    });
    const endpointId = created.body.data.endpoint_id as string;
    const first = await clientB(stack).post('webhook/replay', {
      endpoint_id: endpointId,
      since: '2026-11-21T00:00:00Z',
      note: 'ignored',
    });
    expect(first.body).toMatchObject({
      code: 0,
      data: { endpoint_id: endpointId, since: '2026-11-21T08:00:00+08:00', requested_at: NOW },
    });
    const status = await clientB(stack).get('webhook/get-replay', {
      endpoint_id: endpointId,
      replay_id: first.body.data.replay_id,
    });
    expect(status.body.data).toEqual(first.body.data);
    expect((await clientB(stack).post('webhook/replay', { endpoint_id: endpointId, since: NOW })).body).toEqual(
      fail('A replay of this webhook endpoint is already under way'),
    );
    await clientB(stack).post('webhook/delete-endpoint', { endpoint_id: endpointId });
  });

  test.each([
    [{}, 'endpoint_id require'],
    [{ endpoint_id: 'ID' }, 'replay_id require'],
    [{ endpoint_id: 'ID', replay_id: 'r'.repeat(65) }, 'replay_id invalid'],
    [{ endpoint_id: 'ID', replay_id: 'rp_000000000000000000000000' }, 'Webhook replay not found'],
  ])('get-replay refuses %j with "%s"', async (query, message) => {
    const q = Object.fromEntries(Object.entries(query).map(([k, v]) => [k, v === 'ID' ? id : v]));
    expect(await clientB(stack).get('webhook/get-replay', q)).toMatchObject({ status: 200, body: fail(message) });
  });
});
