/**
 * Replay since a time, the replayer alone on SQLite: from the store's log it
 * queues again, pending whatever their state, the events of the endpoint's account and subscribed
 * types recorded since `since`, and never another account's; a replay left running by a crash
 * resumes after its stored position; with several instances, the one holding the endpoint performs it;
 * a replay since a recent time reads the log from just before that time, not from its start.
 */
import { randomUUID } from 'node:crypto';
import { createParcelProjector, handleParcelCommand, randomIds } from '@parcel-logistics/application';
import { sampleParcelOrder } from '@parcel-logistics/domain/testing';
import { createSqliteEventStore } from '@parcel-logistics/eventstore-sqlite';
import type { RecordedEvent } from '@parcel-logistics/eventstore';
import { createOrder } from '@parcel-logistics/order';
import { createSqliteProjectionStore } from '@parcel-logistics/projections-sqlite';
import type { ReplayRequest } from '@parcel-logistics/webhooks';
import { endpointOf, replayRequestOf } from '@parcel-logistics/webhooks/conformance';
import { createSqliteWebhookDeliveries, createSqliteWebhookStore } from '@parcel-logistics/webhooks-sqlite';
import pino from 'pino';
import { startReplayer } from './worker.ts';

const clock = { now: () => new Date('2026-11-22T06:05:09Z') };
const eventStore = createSqliteEventStore({ file: ':memory:' });
const projections = createSqliteProjectionStore({ file: ':memory:' });
const endpoints = createSqliteWebhookStore({ file: ':memory:' });
const deliveries = createSqliteWebhookDeliveries({ file: ':memory:' });
const deps = {
  eventStore,
  projector: createParcelProjector({ eventStore, views: projections.parcels }),
  clock,
  ids: randomIds,
};
const TYPES = ['ParcelRegistered', 'ParcelCancelled'] as const;
let log: RecordedEvent[] = [];
const parcels: Record<string, string[]> = { demo: [], other: [] };

async function order(clientId: string): Promise<string> {
  const created = await createOrder(
    deps,
    {
      clientId,
      order: sampleParcelOrder({ reference: `REF-${clientId}-${parcels[clientId]!.length}` }),
      serviceType: 'LMD',
      carrier: 'GLX',
    },
    { commandId: randomUUID() },
  );
  if (!created.ok) throw new Error('not created');
  parcels[clientId]!.push(created.trackingNumber);
  return created.trackingNumber;
}

beforeAll(async () => {
  const first = await order('demo');
  await order('other');
  await handleParcelCommand(
    deps,
    first,
    () => ({ type: 'CancelParcel', data: { clientId: 'demo', now: clock.now() } }),
    {},
  );
  // The store stamps events in milliseconds: a pause, so the first parcel's events are recorded before `since`.
  await new Promise((resolve) => setTimeout(resolve, 5));
  await order('demo');
  await order('other');
  await order('demo');
  log = await eventStore.readAll({ limit: 1000 });
});
afterAll(async () => {
  await Promise.all([eventStore.close(), projections.close(), endpoints.close(), deliveries.close()]);
});

const ownerOf = (e: RecordedEvent) =>
  Object.keys(parcels).find((c) => parcels[c]!.some((tn) => e.streamName.endsWith(tn)));
/** The demo account's events of the subscribed types, by the rule the replay documents. */
const demoEvents = (keep: (e: RecordedEvent) => boolean) =>
  log.filter((e) => ownerOf(e) === 'demo' && TYPES.some((t) => e.type.startsWith(`${t}.`)) && keep(e));

const LEASE_MS = 30_000;
const startOne = (store = eventStore) =>
  startReplayer({
    eventStore: store,
    endpoints,
    deliveries,
    clock,
    log: pino({ level: 'silent' }),
    pollIntervalMs: 10,
    owner: 'instance-1',
    leaseMs: LEASE_MS,
  });

async function perform(replay: ReplayRequest, store = eventStore): Promise<ReplayRequest> {
  await deliveries.requestReplay(replay);
  const replayer = startOne(store);
  try {
    for (let i = 0; i < 500 && (await deliveries.getReplay(replay.endpointId, replay.id))?.status !== 'done'; i++)
      await new Promise((r) => setTimeout(r, 10));
  } finally {
    await replayer.stop();
  }
  return (await deliveries.getReplay(replay.endpointId, replay.id))!;
}

test('queues again the account’s subscribed events recorded since the time, delivered ones too, in log order; not another account’s', async () => {
  await endpoints.create(endpointOf('we_1', 'demo', { eventTypes: [...TYPES] }), 10);
  const since = new Date(log.find((e) => e.streamName.endsWith(parcels.demo![1]!))!.recordedAt);
  const expected = demoEvents((e) => new Date(e.recordedAt) >= since);
  // One of them was delivered before: the replay makes it pending again.
  await deliveries.enqueue(
    [{ endpointId: 'we_1', eventId: expected[0]!.id, position: expected[0]!.globalPosition, body: '{}' }],
    clock.now(),
  );
  await deliveries.settle('we_1', expected[0]!.id, 'delivered', 1, clock.now());

  const done = await perform(replayRequestOf('rp_1', 'we_1', { since }));
  expect(done).toMatchObject({
    status: 'done',
    scanned: log.length,
    queued: expected.length,
    position: log.at(-1)!.globalPosition,
    finishedAt: clock.now(),
  });
  const messages = (await deliveries.messages('we_1', { limit: 100 })).reverse();
  expect(messages.map((m) => [m.eventId, m.position, m.state, m.attempts])).toEqual(
    expected.map((e) => [e.id, e.globalPosition, 'pending', 0]),
  );
  expect(messages.every((m) => JSON.parse(m.body).clientId === 'demo')).toBe(true);
  expect(expected.length).toBeGreaterThan(0);
  expect(demoEvents(() => true).length).toBeGreaterThan(expected.length);
});

test('a replay left running by a crash resumes after its stored position', async () => {
  await endpoints.create(endpointOf('we_2', 'demo', { eventTypes: [...TYPES] }), 10);
  const at = log[Math.floor(log.length / 2)]!.globalPosition;
  const done = await perform(
    replayRequestOf('rp_2', 'we_2', { since: new Date(0), status: 'running', position: at, scanned: 7, queued: 1 }),
  );
  const expected = demoEvents((e) => e.globalPosition > at);
  expect(done).toMatchObject({
    status: 'done',
    scanned: 7 + log.filter((e) => e.globalPosition > at).length,
    queued: 1 + expected.length,
  });
  expect((await deliveries.messages('we_2', { limit: 100 })).reverse().map((m) => m.eventId)).toEqual(
    expected.map((e) => e.id),
  );
});

test('a replay waits while another instance holds the endpoint, and is performed once that claim is given up', async () => {
  await endpoints.create(endpointOf('we_3', 'demo', { eventTypes: [...TYPES] }), 10);
  const until = new Date(clock.now().getTime() + LEASE_MS);
  expect(await deliveries.claim('we_3', 'instance-2', clock.now(), until)).toBe(true);
  await deliveries.requestReplay(replayRequestOf('rp_3', 'we_3', { since: new Date(0) }));
  const replayer = startOne();
  try {
    // Several polls of the replayer go by while the other instance holds the endpoint.
    await new Promise((r) => setTimeout(r, 100));
    expect((await deliveries.getReplay('we_3', 'rp_3'))?.status).toBe('requested');
    await deliveries.release('we_3', 'instance-2');
    for (let i = 0; i < 500 && (await deliveries.getReplay('we_3', 'rp_3'))?.status !== 'done'; i++)
      await new Promise((r) => setTimeout(r, 10));
    expect((await deliveries.getReplay('we_3', 'rp_3'))?.status).toBe('done');
    // Its claim is given up with it: the dispatcher of another instance may take the endpoint.
    expect(await deliveries.claim('we_3', 'instance-2', clock.now(), until)).toBe(true);
  } finally {
    await replayer.stop();
  }
});

test('a replay since a recent time reads the log from just before it: the older events are not read', async () => {
  let now = new Date('2026-11-01T00:00:00Z');
  const timed = createSqliteEventStore({ file: ':memory:', now: () => now });
  try {
    const OLD = 300;
    for (let i = 0; i < OLD; i++)
      await timed.append({
        streamName: `noise-${i}`,
        expectedRevision: 'no_stream',
        events: [{ id: randomUUID(), type: 'Noise.v1', data: {} }],
      });
    // A day later, two of the account's parcels.
    now = new Date('2026-11-02T00:00:00Z');
    const timedDeps = {
      ...deps,
      eventStore: timed,
      projector: createParcelProjector({ eventStore: timed, views: projections.parcels }),
    };
    for (let i = 0; i < 2; i++) {
      const created = await createOrder(
        timedDeps,
        {
          clientId: 'demo',
          order: sampleParcelOrder({ reference: `REF-timed-${i}` }),
          serviceType: 'LMD',
          carrier: 'GLX',
        },
        { commandId: randomUUID() },
      );
      expect(created.ok).toBe(true);
    }
    const recent = (await timed.readAll({ afterPosition: OLD, limit: 1000 })).length;
    await endpoints.create(endpointOf('we_4', 'demo', { eventTypes: ['ParcelRegistered'] }), 10);
    const done = await perform(replayRequestOf('rp_4', 'we_4', { since: now }), timed);
    expect(done).toMatchObject({ status: 'done', scanned: recent, queued: 2 });
    expect(recent).toBeLessThan(10);
    // Since before all of it, the whole log is read.
    await endpoints.create(endpointOf('we_5', 'demo', { eventTypes: ['ParcelRegistered'] }), 10);
    expect(
      await perform(replayRequestOf('rp_5', 'we_5', { since: new Date('2026-10-01T00:00:00Z') }), timed),
    ).toMatchObject({ status: 'done', scanned: OLD + recent, queued: 2 });
  } finally {
    await timed.close();
  }
});
