/**
 * Idempotency-Key and failures: a 5xx answer is not kept, so a retry with the same key runs the
 * request again; an answer is kept before it is sent; a client that gives up does not lose the
 * answer. On the gateway alone, over a real SQLite projection store whose batch lookup fails once,
 * and an order service that answers slowly.
 */
import { createInProcessBus } from '@parcel-logistics/bus';
import { Topics } from '@parcel-logistics/contracts';
import type { CreateOrderReply } from '@parcel-logistics/contracts';
import { SAMPLE_ORDER } from '@parcel-logistics/contracts/api';
import { createSqliteProjectionStore } from '@parcel-logistics/projections-sqlite';
import { signature } from '../auth/signature.ts';
import { FIXED_NOW, listeningGateway } from '../../test/gateway.fixtures.ts';

const projections = createSqliteProjectionStore({ file: ':memory:' });
let failures = 0;
const lookup = projections.parcels.getManyForClient.bind(projections.parcels);
projections.parcels.getManyForClient = (clientId, numbers) =>
  failures-- > 0 ? Promise.reject(new Error('store down')) : lookup(clientId, numbers);

// The order service's stand-in: slow enough for a client to give up first, and counting its calls.
const bus = createInProcessBus();
let orders = 0;
void bus.handleRequests(Topics.orderCommands, async (): Promise<CreateOrderReply> => {
  orders++;
  await new Promise((resolve) => setTimeout(resolve, 300));
  return { ok: true, trackingNumber: 'PX7K2P9S4W8Y1Q3T55', createdAt: '2026-11-22T14:05:09+08:00' };
});
const gateway = listeningGateway({ bus, projections });
beforeAll(gateway.start);
afterAll(async () => {
  await gateway.stop();
  await projections.close();
});

const seed = String(FIXED_NOW.getTime());
const signed = { 'x-auth-name': 'demo', 'x-auth-seed': seed, 'x-auth-token': signature('demo', 'demo-secret', seed) };
const post = (key: string) =>
  fetch(`${gateway.url()}/v1/openapi/order/query-multi-status`, {
    method: 'POST',
    headers: { 'idempotency-key': key, ...signed },
    body: JSON.stringify({ tracking_nums: ['PX7K2P9S4W8Y1Q3T55'] }),
  });

test('a 500 is not kept: the retry with the same key runs again and its answer is the one kept', async () => {
  failures = 1;
  const first = await post('retry-after-500');
  expect(first.status).toBe(500);
  expect(await first.json()).toEqual({ code: 1, message: 'server error', data: [] });
  const retry = await post('retry-after-500');
  expect(retry.status).toBe(200);
  expect(retry.headers.get('idempotent-replayed')).toBeNull();
  const answer = await retry.text();
  expect(JSON.parse(answer).code).toBe(0);
  const replay = await post('retry-after-500');
  expect(replay.headers.get('idempotent-replayed')).toBe('true');
  expect(await replay.text()).toBe(answer);
});

test('the answer is kept before it is sent: the record is done by the time the client reads it', async () => {
  const reply = await post('kept-first');
  expect(reply.status).toBe(200);
  const record = await projections.idempotency.get('demo', 'kept-first');
  expect(record?.state).toBe('done');
  expect(record?.answer?.status).toBe(200);
});

test('a client that gives up before the answer does not lose it: its retry gets the answer of the work done once', async () => {
  const order = { ...SAMPLE_ORDER, custom_tracking_num: 'ORDER-GIVES-UP' };
  const send = (signal?: AbortSignal) =>
    fetch(`${gateway.url()}/v1/openapi/order/create-order`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'idempotency-key': 'gives-up', ...signed },
      body: JSON.stringify(order),
      ...(signal ? { signal } : {}),
    });
  const before = orders;
  await expect(send(AbortSignal.timeout(50))).rejects.toThrow();
  const retry = await send();
  expect(retry.headers.get('idempotent-replayed')).toBe('true');
  expect((await retry.json()).data.wmg_tracking_num).toBe('PX7K2P9S4W8Y1Q3T55');
  expect(orders - before).toBe(1);
});
