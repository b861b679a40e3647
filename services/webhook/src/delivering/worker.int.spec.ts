/**
 * The dispatcher's leases, on SQLite with a local receiver: it sends nothing of an endpoint whose
 * queue another instance holds, takes the queue over once that claim expires (an instance that
 * died), sends it in order, and gives its own claim up when the queue is done; a disabled account's
 * queue waits until the account is enabled again.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { endpointOf } from '@parcel-logistics/webhooks/conformance';
import { createSqliteWebhookDeliveries, createSqliteWebhookStore } from '@parcel-logistics/webhooks-sqlite';
import pino from 'pino';
import { startDispatcher } from './worker.ts';

const clock = { now: () => new Date() };
const endpoints = createSqliteWebhookStore({ file: ':memory:' });
const deliveries = createSqliteWebhookDeliveries({ file: ':memory:' });
const hits: string[] = [];
let server: http.Server;
let url = '';

beforeAll(async () => {
  server = http.createServer((req, res) => {
    hits.push(String(req.headers['webhook-id']));
    req.resume().on('end', () => res.end('ok'));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
});
afterAll(async () => {
  await Promise.all([endpoints.close(), deliveries.close(), new Promise((resolve) => server.close(resolve))]);
});

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

test('another instance’s claim holds the queue back until it expires; then it goes out in order, and the claim is given up', async () => {
  await endpoints.create(endpointOf('we_1', 'demo', { url }), 10);
  const heldUntil = new Date(Date.now() + 600);
  expect(await deliveries.claim('we_1', 'instance-2', clock.now(), heldUntil)).toBe(true);
  await deliveries.enqueue(
    [1, 2, 3].map((p) => ({ endpointId: 'we_1', eventId: `ev-${p}`, position: p, body: '{}' })),
    clock.now(),
  );
  const config = {
    retryScheduleMs: [100],
    timeoutMs: 500,
    disableAfterMs: 60_000,
    allowPrivate: true,
    pollIntervalMs: 20,
    leaseMs: 1000,
  };
  const dispatcher = startDispatcher({
    endpoints,
    deliveries,
    clock,
    log: pino({ level: 'silent' }),
    config,
    owner: 'instance-1',
  });
  try {
    await sleep(300);
    expect(hits).toEqual([]);
    for (let i = 0; i < 200 && hits.length < 3; i++) await sleep(20);
    expect(hits).toEqual(['ev-1', 'ev-2', 'ev-3']);
    expect(Date.now()).toBeGreaterThanOrEqual(heldUntil.getTime());
    // Done with the queue: its claim is free for any instance at once.
    let free = false;
    for (let i = 0; i < 50 && !free; i++) {
      free = await deliveries.claim('we_1', 'instance-2', clock.now(), new Date(Date.now() + 1000));
      if (!free) await sleep(20);
    }
    expect(free).toBe(true);
    expect((await deliveries.messages('we_1', { limit: 10 })).map((m) => m.state)).toEqual([
      'delivered',
      'delivered',
      'delivered',
    ]);
  } finally {
    await dispatcher.stop();
  }
});

test('the queue of a disabled account waits, unsent, while the dispatcher looks at it; enabled again, it goes out in order', async () => {
  await endpoints.create(endpointOf('we_paused', 'acme', { url }), 10);
  await deliveries.enqueue(
    [1, 2].map((p) => ({ endpointId: 'we_paused', eventId: `paused-${p}`, position: p, body: '{}' })),
    clock.now(),
  );
  let disabled = true;
  let looked = 0;
  const dispatcher = startDispatcher({
    endpoints,
    deliveries,
    clock,
    log: pino({ level: 'silent' }),
    config: {
      retryScheduleMs: [100],
      timeoutMs: 500,
      disableAfterMs: 60_000,
      allowPrivate: true,
      pollIntervalMs: 10,
      leaseMs: 1000,
    },
    owner: 'instance-1',
    paused: (clientId) => {
      if (clientId === 'acme') looked++;
      return clientId === 'acme' && disabled;
    },
  });
  try {
    // Each look is a poll that found the queue due and held it back.
    for (let i = 0; i < 500 && looked < 3; i++) await sleep(10);
    expect(looked).toBeGreaterThanOrEqual(3);
    expect(hits.filter((h) => h.startsWith('paused-'))).toEqual([]);
    expect((await deliveries.messages('we_paused', { limit: 10 })).map((m) => [m.state, m.attempts])).toEqual([
      ['pending', 0],
      ['pending', 0],
    ]);
    disabled = false;
    for (let i = 0; i < 500 && hits.filter((h) => h.startsWith('paused-')).length < 2; i++) await sleep(10);
    expect(hits.filter((h) => h.startsWith('paused-'))).toEqual(['paused-1', 'paused-2']);
  } finally {
    await dispatcher.stop();
  }
});
