/**
 * Webhook delivery on the embedded wiring: every client-visible parcel event reaches the
 * subscribed endpoints of the parcel's own account, signed per Standard Webhooks (verified by the
 * `standardwebhooks` package in a receiver process of its own), in order per parcel, through
 * failures retried on a compressed schedule; never another account's events, never internal records.
 */
import { clientB, DEMO, OTHER } from '../support/client.ts';
import { eventually } from '../support/carriers.ts';
import { orderBody } from '../support/orders.ts';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { startTestStack, TestClock } from '../support/stack.ts';
import type { TestStack } from '../support/stack.ts';
import { startReceiver, subscribe as subscribeAt } from './support.ts';
import type { Receiver, Received } from './support.ts';

const SCHEDULE_MS = [100, 200, 400];
let stack: TestStack;
let demo: Receiver;
let other: Receiver;
let demoSecret = '';
beforeAll(async () => {
  // Delivery runs on real time (receivers check webhook-timestamp), so the stack's clock starts at
  // now: a rotated-out secret's 24 h, set by the gateway, is then still running when delivery reads it.
  const reuse = { dataDir: mkdtempSync(path.join(tmpdir(), 'parcel-test-')), clock: new TestClock(Date.now()) };
  stack = await startTestStack(
    {
      PARCEL_WEBHOOK_ALLOW_PRIVATE: 'on',
      PARCEL_WEBHOOK_RETRY_SCHEDULE_MS: SCHEDULE_MS.join(','),
      PARCEL_WEBHOOK_POLL_MS: '20',
    },
    reuse,
  );
  [demo, other] = await Promise.all([startReceiver(), startReceiver()]);
});
afterAll(async () => {
  demo?.stop();
  other?.stop();
  await stack?.destroy();
});

/** The id of the demo account's endpoint at the demo receiver. */
async function demoEndpointId(): Promise<string> {
  const list = await clientB(stack, DEMO).get('webhook/list-endpoints');
  return list.body.data.find((e: { url: string }) => e.url === `${demo.url}/demo`).endpoint_id as string;
}

/** `operation` on the demo account's endpoint, answered with success for that endpoint: the endpoint's id and the answer's data. */
async function onDemoEndpoint(operation: string) {
  const endpointId = await demoEndpointId();
  const reply = await clientB(stack, DEMO).post(`webhook/${operation}`, { endpoint_id: endpointId });
  expect(reply.body).toMatchObject({ code: 0, message: 'success', data: { endpoint_id: endpointId } });
  return { endpointId, data: reply.body.data };
}

const ALL_TYPES = ['ParcelRegistered', 'LabelGenerated', 'ParcelCancelled', 'CarrierEventRecorded'];

async function subscribe(receiver: Receiver, account: typeof DEMO, failFirst: number): Promise<string> {
  const body = { url: `${receiver.url}/${account.apiName}`, event_types: ALL_TYPES };
  return (await subscribeAt(clientB(stack, account), receiver, body, failFirst)).secret;
}

async function order(account: typeof DEMO): Promise<string> {
  const reply = await clientB(stack, account).post('order/create-order', orderBody());
  expect(reply.body.code).toBe(0);
  return reply.body.data.wmg_tracking_num as string;
}

const byParcel = (received: Received[], trackingNumber: string) =>
  received.filter((r) => r.body.trackingNumber === trackingNumber);

test('signed, retried on 503 per the schedule, in order per parcel, to its own account only', async () => {
  demoSecret = await subscribe(demo, DEMO, 2);
  await subscribe(other, OTHER, 0);
  const demoParcels = [await order(DEMO), await order(DEMO), await order(DEMO)];
  const otherParcel = await order(OTHER);
  // Cancelling asks the carrier: once the subscriptions have caught up, the parcels are registered with it.
  await stack.caughtUp();
  const cancelled = await clientB(stack, DEMO).post('order/cancel-orders', { tracking_nums: [demoParcels[0]] });
  expect(cancelled.body.data.success).toEqual([demoParcels[0]]);

  await eventually(async () => {
    const got = await demo.received();
    for (const n of demoParcels) expect(byParcel(got, n).map((r) => r.body.type)).toContain('ParcelRegistered');
    expect(byParcel(got, demoParcels[0]!).map((r) => r.body.type)).toContain('ParcelCancelled');
    expect(byParcel(await other.received(), otherParcel).map((r) => r.body.type)).toContain('ParcelRegistered');
  }, 20_000);

  const got = await demo.received();
  // Every request verified by standardwebhooks with the endpoint's secret; the webhook id is the event id.
  expect(got.every((r) => r.verified && r.signatures === 1 && r.id === r.body.eventId)).toBe(true);
  // The receiver failed the first two attempts of each message: each was delivered on its third.
  expect(got.map((r) => r.attempt)).toEqual(got.map(() => 3));
  // In order per parcel, each event once.
  for (const n of demoParcels) {
    const revisions = byParcel(got, n).map((r) => r.body.streamRevision);
    expect(revisions).toEqual([...revisions].sort((a, b) => a - b));
    expect(new Set(revisions).size).toBe(revisions.length);
  }
  // Only client-visible events, with the parcel.events.v2 fields, of this account alone.
  for (const r of got) {
    expect(ALL_TYPES).toContain(r.body.type);
    expect(r.body.statusCode).not.toBeNull();
    expect(r.body.clientId).toBe('demo');
    expect(r.path).toBe('/demo');
    expect(Object.keys(r.body).sort()).toEqual([
      'clientId',
      'data',
      'eventId',
      'personalData',
      'schema',
      'statusCode',
      'streamRevision',
      'time',
      'trackingNumber',
      'type',
    ]);
  }
  const theirs = await other.received();
  expect(theirs.length).toBeGreaterThan(0);
  expect(theirs.every((r) => r.verified && r.attempt === 1 && r.body.clientId === 'other' && r.path === '/other')).toBe(
    true,
  );
  expect(theirs.some((r) => demoParcels.includes(r.body.trackingNumber))).toBe(false);
  expect(got.some((r) => r.body.trackingNumber === otherParcel)).toBe(false);
}, 30_000);

test('a dead endpoint of one account does not hold up another account’s', async () => {
  // An address nothing listens on: connection refused, retried on the schedule, for as long as the test runs.
  await clientB(stack, OTHER).post('webhook/create-endpoint', {
    url: 'http://127.0.0.1:9/dead',
    event_types: ALL_TYPES,
  });
  await demo.configure({ secrets: [demoSecret], failFirst: 0 });
  const before = (await demo.received()).length;
  await order(OTHER);
  const started = Date.now();
  const mine = await order(DEMO);
  await eventually(async () => expect(byParcel(await demo.received(), mine).length).toBeGreaterThan(0), 10_000);
  expect(Date.now() - started).toBeLessThan(3000);
  expect((await demo.received()).length).toBeGreaterThan(before);
}, 20_000);

test('after a rotation both secrets sign, each verified by standardwebhooks; the rotate answer is the only place the new secret shows', async () => {
  const rotated = await onDemoEndpoint('rotate-secret');
  const fresh = rotated.data.secret as string;
  expect(fresh).toMatch(/^whsec_/);
  expect(fresh).not.toBe(demoSecret);
  expect(JSON.stringify((await clientB(stack, DEMO).get('webhook/list-endpoints')).body)).not.toContain('whsec_');
  // The receiver now requires a valid signature under each of the two secrets.
  await demo.configure({ secrets: [fresh, demoSecret], failFirst: 0 });
  const mine = await order(DEMO);
  await eventually(async () => expect(byParcel(await demo.received(), mine).length).toBeGreaterThan(0), 10_000);
  for (const r of byParcel(await demo.received(), mine))
    expect({ verified: r.verified, signatures: r.signatures }).toEqual({ verified: true, signatures: 2 });
}, 20_000);

test('a test event is delivered, signed, with its own type and the id the answer named', async () => {
  const { endpointId, data } = await onDemoEndpoint('send-test-event');
  const eventId = data.event_id as string;
  await eventually(async () => expect((await demo.received()).some((r) => r.id === eventId)).toBe(true), 10_000);
  const got = (await demo.received()).find((r) => r.id === eventId)!;
  expect(got.verified).toBe(true);
  expect(got.body).toMatchObject({
    type: 'WebhookTest',
    schema: 'WebhookTest.v1',
    eventId,
    clientId: 'demo',
    endpointId,
  });
  const foreign = await clientB(stack, OTHER).post('webhook/send-test-event', { endpoint_id: endpointId });
  expect(foreign.body).toEqual({ code: 1, message: 'Webhook endpoint not found', data: [] });
}, 20_000);
