/**
 * Webhooks, both wirings: webhooks on the distributed stack with two webhook service instances and
 * real receiver processes that verify every request with `standardwebhooks`. Endpoints are created
 * over both gateways; orders are created under load; the instance that holds the fan-out
 * subscription and endpoint leases is killed with SIGKILL during delivery. Every event of every
 * acknowledged order reaches each of the account's endpoints at least once, in order per parcel,
 * with duplicates recognisable by `webhook-id`; another account's endpoint gets none of them.
 * Before that, every endpoint operation, the delivery log and a replay go through both gateways.
 */
import pg from 'pg';
import { WEBHOOK_EVENT_TYPES } from '@parcel-logistics/contracts';
import { formatSgt } from '@parcel-logistics/domain';
import { clientB, DEMO, OTHER, realTime } from '../support/client.ts';
import type { Target } from '../support/client.ts';
import { eventually } from '../support/carriers.ts';
import { orderBody } from '../support/orders.ts';
import { startReceiver } from '../webhooks/support.ts';
import type { Received, Receiver } from '../webhooks/support.ts';
import { Cluster, requireInfra, waitReady } from './support/cluster.ts';
import type { ServiceProcess } from './support/cluster.ts';
import { OrderLoad } from './support/load.ts';

jest.setTimeout(300_000);

const DEMO_ENDPOINTS = 3;
const cluster = new Cluster({
  PARCEL_WEBHOOK_ALLOW_PRIVATE: 'on',
  PARCEL_WEBHOOK_RETRY_SCHEDULE_MS: '100,200,400,400,400,400,400,400,400,400',
  PARCEL_WEBHOOK_TIMEOUT_MS: '2000',
  PARCEL_WEBHOOK_LEASE_MS: '4000',
  PARCEL_WEBHOOK_POLL_MS: '50',
});
const db = new pg.Client({ connectionString: requireInfra().pg });
const receivers: Receiver[] = [];
let first: ServiceProcess;
let gateways: Target[];

/** Owners of the endpoint leases that have not expired. */
async function leaseOwners(): Promise<string[]> {
  const { rows } = await db.query<{ owner: string }>(
    `SELECT owner FROM "${cluster.runId}".webhook_leases WHERE expires_at > $1`,
    [Date.now()],
  );
  return rows.map((r) => r.owner);
}

/** Whether a process holds the fan-out subscription's lease (a session advisory lock on the run's schema). */
async function fanOutHeld(): Promise<boolean> {
  const { rows } = await db.query(
    `SELECT 1 FROM pg_locks WHERE locktype = 'advisory' AND granted AND objsubid = 2
       AND classid::bigint = (hashtext($1)::bigint & 4294967295) AND objid::bigint = (hashtext('webhook-fan-out')::bigint & 4294967295)`,
    [cluster.runId],
  );
  return rows.length === 1;
}

beforeAll(async () => {
  await db.connect();
  await cluster.startAll();
  gateways = cluster.gateways.map(realTime);
  // The first instance serves the fan-out before the second starts: killing it kills that holder.
  first = await cluster.start('webhook', { PARCEL_INSTANCE_ID: 'webhook-first' });
  await eventually(async () => expect(await fanOutHeld()).toBe(true), 30_000);
  await waitReady(first);
  await waitReady(await cluster.start('webhook', { PARCEL_INSTANCE_ID: 'webhook-second' }));
  // The demo endpoints, the other account's, and one for the operations test.
  for (let i = 0; i < DEMO_ENDPOINTS + 2; i++) receivers.push(await startReceiver());
}, 300_000);
afterAll(async () => {
  receivers.forEach((r) => r.stop());
  await db.end();
  await cluster.stop();
}, 60_000);

async function createEndpoint(gateway: Target, receiver: Receiver, account = DEMO): Promise<string> {
  const created = await clientB(gateway, account).post('webhook/create-endpoint', {
    url: `${receiver.url}/hook`,
    event_types: [...WEBHOOK_EVENT_TYPES],
  });
  expect(created.body.code).toBe(0);
  await receiver.configure({ secrets: [created.body.data.secret] });
  return created.body.data.endpoint_id;
}

test('every endpoint operation, the delivery log and a replay work through both gateways on the shared PostgreSQL state', async () => {
  const receiver = receivers[DEMO_ENDPOINTS + 1]!;
  const [gw0, gw1] = [clientB(gateways[0]!), clientB(gateways[1]!)];
  const since = formatSgt(new Date(Date.now() - 60_000));
  const created = await gw0.post('webhook/create-endpoint', {
    url: `${receiver.url}/ops`,
    event_types: ['ParcelRegistered'],
    description: 'ops',
  });
  expect(created.body.code).toBe(0);
  const id: string = created.body.data.endpoint_id;
  expect((await gw1.get('webhook/get-endpoint', { endpoint_id: id })).body.data).toMatchObject({
    endpoint_id: id,
    description: 'ops',
    enabled: true,
  });
  expect(
    (await gw1.post('webhook/update-endpoint', { endpoint_id: id, description: 'ops, renamed' })).body.data.description,
  ).toBe('ops, renamed');
  const rotated = await gw0.post('webhook/rotate-secret', { endpoint_id: id });
  expect(rotated.body.code).toBe(0);
  // Both secrets sign until the old one expires: the receiver checks each.
  await receiver.configure({ secrets: [rotated.body.data.secret, created.body.data.secret] });
  const test = await gw1.post('webhook/send-test-event', { endpoint_id: id });
  const order = await gw0.post('order/create-order', orderBody());
  expect([test.body.code, order.body.code]).toEqual([0, 0]);
  const tn: string = order.body.data.wmg_tracking_num;
  await eventually(async () => {
    const got = await receiver.received();
    expect(got.map((e) => e.body.type).sort()).toEqual(['ParcelRegistered', 'WebhookTest']);
    expect(got.every((e) => e.verified && e.signatures === 2)).toBe(true);
  }, 60_000);
  const registered = (await receiver.received()).find((e) => e.body.type === 'ParcelRegistered')!;
  expect(registered.body.trackingNumber).toBe(tn);
  await eventually(async () => {
    const messages = (await gw1.get('webhook/list-messages', { endpoint_id: id })).body.data.messages;
    expect(messages.map((m: { event_id: string; state: string }) => [m.event_id, m.state]).sort()).toEqual(
      [
        [registered.id, 'delivered'],
        [test.body.data.event_id, 'delivered'],
      ].sort(),
    );
  }, 30_000);
  // A replay from before the order sends its event again, with the same webhook-id.
  const replay = await gw0.post('webhook/replay', { endpoint_id: id, since });
  expect(replay.body.code).toBe(0);
  await eventually(
    async () =>
      expect(
        (await gw1.get('webhook/get-replay', { endpoint_id: id, replay_id: replay.body.data.replay_id })).body.data
          .status,
      ).toBe('done'),
    60_000,
  );
  await eventually(
    async () => expect((await receiver.received()).filter((e) => e.id === registered.id)).toHaveLength(2),
    60_000,
  );
  expect((await gw1.post('webhook/delete-endpoint', { endpoint_id: id })).body.data).toEqual({ endpoint_id: id });
  expect((await gw0.get('webhook/get-endpoint', { endpoint_id: id })).body.message).toBe('Webhook endpoint not found');
});

test('kill -9 of the webhook instance holding the fan-out and endpoint leases during delivery: every event of every acknowledged order arrives, verified, in order per parcel; none at another account', async () => {
  const demo = receivers.slice(0, DEMO_ENDPOINTS);
  const other = receivers[DEMO_ENDPOINTS]!;
  // Endpoint management works through either gateway: the endpoints are shared account state.
  const ids = [];
  for (const [i, r] of demo.entries()) ids.push(await createEndpoint(gateways[i % 2]!, r));
  await createEndpoint(gateways[1]!, other, OTHER);
  const listed = await clientB(gateways[1]!).get('webhook/list-endpoints');
  expect(listed.body.data.map((e: { endpoint_id: string }) => e.endpoint_id)).toEqual(ids);

  // The other account's own parcel: its endpoint does receive, only its account's events.
  const otherOrder = await clientB(gateways[0]!, OTHER).post('order/create-order', orderBody());
  expect(otherOrder.body.code).toBe(0);

  const load = new OrderLoad(
    () => cluster.gateways.map(realTime),
    6,
    (ref) => orderBody({ custom_tracking_num: ref }),
  );
  await eventually(async () => expect(load.acknowledged.length).toBeGreaterThan(60), 60_000);
  // During delivery: the first instance holds at least one endpoint's lease (and the fan-out).
  await eventually(async () => expect(await leaseOwners()).toContain('webhook-first'), 60_000);
  expect(await fanOutHeld()).toBe(true);
  await cluster.kill(first);
  const atKill = load.acknowledged.length;
  // The dead holder's session ended with its process: the survivor serves the fan-out now.
  await eventually(async () => expect(await fanOutHeld()).toBe(true), 30_000);
  // Orders keep coming after the kill; the survivor must take over the fan-out to deliver them.
  await eventually(async () => expect(load.acknowledged.length).toBeGreaterThan(atKill + 60), 60_000);
  const toCancel = load.acknowledged.slice(0, 20).map((o) => o.trackingNumber!);
  const cancelled = await clientB(gateways[0]!).post('order/cancel-orders', { tracking_nums: toCancel });
  expect(cancelled.body.code).toBe(0);
  await load.stop();

  const cancelledTns = new Set<string>(cancelled.body.data.success);
  expect(cancelledTns.size).toBeGreaterThan(0);
  const expected = load.acknowledged.map((o) => o.trackingNumber!);
  const missing = (got: Received[]) => {
    const seen = new Set(got.map((r) => `${r.body.trackingNumber} ${r.body.type}`));
    return expected
      .flatMap((tn) =>
        cancelledTns.has(tn) ? [`${tn} ParcelRegistered`, `${tn} ParcelCancelled`] : [`${tn} ParcelRegistered`],
      )
      .filter((k) => !seen.has(k));
  };
  await eventually(async () => {
    for (const r of demo) expect(missing(await r.received())).toEqual([]);
  }, 180_000);

  const demoTns = new Set(expected);
  for (const r of demo) {
    const got = await r.received();
    expect(got.filter((e) => !e.verified)).toEqual([]);
    expect(got.every((e) => e.body.clientId === 'demo')).toBe(true);
    // Duplicates are recognisable: one webhook-id is always the same event, and is that event's id.
    const byId = new Map<string, string>();
    for (const e of got) {
      expect(e.id).toBe(e.body.eventId);
      const text = JSON.stringify(e.body);
      expect(byId.get(e.id) ?? text).toBe(text);
      byId.set(e.id, text);
    }
    // In order per parcel: stream revisions never go back, a repeat included.
    const last = new Map<string, number>();
    for (const e of got) {
      const tn: string = e.body.trackingNumber;
      expect([tn, e.body.streamRevision >= (last.get(tn) ?? -1)]).toEqual([tn, true]);
      last.set(tn, e.body.streamRevision);
    }
  }
  await eventually(
    async () =>
      expect((await other.received()).map((e) => e.body.trackingNumber)).toContain(
        otherOrder.body.data.wmg_tracking_num,
      ),
    60_000,
  );
  const otherGot = await other.received();
  expect(otherGot.every((e) => e.verified && e.body.clientId === 'other')).toBe(true);
  expect(otherGot.filter((e) => demoTns.has(e.body.trackingNumber))).toEqual([]);
});
