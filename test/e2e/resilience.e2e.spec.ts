/**
 * The distributed tier: scale-out under load, kill -9 of an order and of the tracking process
 * during load. Every order that got code 0 is in the store and the projections exactly once; none
 * that got an error is; the system answers again within 10 s of a restart.
 */
import { Kafka, AssignerProtocol, logLevel } from 'kafkajs';
import { clientB, realTime } from '../support/client.ts';
import { eventually } from '../support/carriers.ts';
import { orderBody } from '../support/orders.ts';
import { Cluster } from './support/cluster.ts';
import { OrderLoad } from './support/load.ts';
import { storedCounts } from './support/stores.ts';

jest.setTimeout(240_000);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function expectExactlyOnce(cluster: Cluster, load: OrderLoad) {
  const acknowledged = load.acknowledged;
  const failed = load.failed;
  expect(acknowledged.length).toBeGreaterThan(20);
  const all = [...acknowledged, ...failed].map((o) => o.ref);
  // The projections catch up asynchronously only for what was missed; give them a moment.
  await eventually(async () => {
    const { views } = await storedCounts(
      cluster,
      acknowledged.map((o) => o.ref),
    );
    expect(acknowledged.filter((o) => views.get(o.ref) !== 1).map((o) => o.ref)).toEqual([]);
  }, 60_000);
  const { claims, parcelsRegistered, views } = await storedCounts(cluster, all);
  for (const o of acknowledged) {
    expect([o.ref, claims.get(o.ref)]).toEqual([o.ref, 1]);
    expect([o.ref, views.get(o.ref)]).toEqual([o.ref, 1]);
  }
  for (const o of failed) {
    expect([o.ref, o.answer, claims.get(o.ref) ?? 0]).toEqual([o.ref, o.answer, 0]);
    expect([o.ref, views.get(o.ref) ?? 0]).toEqual([o.ref, 0]);
  }
  expect(parcelsRegistered).toBe(acknowledged.length);
}

/** Time from now until a create-order through the gateways succeeds. */
async function secondsUntilAnswering(cluster: Cluster): Promise<number> {
  const start = Date.now();
  for (;;) {
    const r = await clientB(realTime(cluster.gateways[0]!))
      .post('order/create-order', orderBody())
      .catch(() => null);
    if (r?.body?.code === 0) return (Date.now() - start) / 1000;
    if (Date.now() - start > 60_000) throw new Error('no successful create-order within 60 s');
    await sleep(100);
  }
}

describe('scale-out', () => {
  const cluster = new Cluster();
  beforeAll(() => cluster.startAll({ orders: 2 }), 240_000);
  afterAll(() => cluster.stop(), 60_000);

  test('a third order process joins under load and takes partitions; nothing lost or doubled', async () => {
    const load = new OrderLoad(() => cluster.gateways.map(realTime), 8);
    await sleep(3000);
    await cluster.start('order');
    await sleep(8000);
    await load.stop();

    const kafka = new Kafka({ brokers: process.env.PARCEL_KAFKA_BROKERS!.split(','), logLevel: logLevel.NOTHING });
    const admin = kafka.admin();
    await admin.connect();
    try {
      await eventually(async () => {
        const [group] = (await admin.describeGroups(['parcel.commands.order'])).groups;
        const partitions = group!.members.map((m) => {
          const assignment = AssignerProtocol.MemberAssignment.decode(m.memberAssignment);
          return Object.values(assignment?.assignment ?? {}).flat().length;
        });
        expect(partitions).toHaveLength(3);
        expect(Math.min(...partitions)).toBeGreaterThan(0);
      }, 30_000);
    } finally {
      await admin.disconnect();
    }
    await expectExactlyOnce(cluster, load);
  });
});

describe('crash', () => {
  const cluster = new Cluster();
  beforeAll(() => cluster.startAll({ orders: 2 }), 240_000);
  afterAll(() => cluster.stop(), 60_000);

  test('kill -9 of an order process and of the tracking process during load', async () => {
    const load = new OrderLoad(() => cluster.gateways.map(realTime), 8);
    await sleep(3000);
    await cluster.kill(cluster.of('order')[0]!);
    await sleep(2000);
    await cluster.kill(cluster.of('tracking')[0]!);
    await sleep(2000);
    await Promise.all([cluster.start('order'), cluster.start('tracking')]);
    const recovery = await secondsUntilAnswering(cluster);
    await sleep(3000);
    await load.stop();
    expect(recovery).toBeLessThan(10);
    await expectExactlyOnce(cluster, load);
  });
});
