/**
 * The Kafka broker restarted during load: clients get clear errors or success, nothing
 * acknowledged is lost, nothing refused is created. It stops the shared broker, so it runs only
 * with PARCEL_KAFKA_RESTART_TEST=1, in the test command's second, serial pass.
 */
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { clientB, realTime } from '../support/client.ts';
import { eventually } from '../support/carriers.ts';
import { orderBody } from '../support/orders.ts';
import { Cluster } from './support/cluster.ts';
import { OrderLoad } from './support/load.ts';
import { storedCounts } from './support/stores.ts';

const enabled = process.env.PARCEL_KAFKA_RESTART_TEST === '1';
const ROOT = path.resolve(import.meta.dirname, '../..');
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
jest.setTimeout(300_000);

(enabled ? describe : describe.skip)('Kafka broker restart (PARCEL_KAFKA_RESTART_TEST=1)', () => {
  const cluster = new Cluster();
  beforeAll(() => cluster.startAll({ orders: 2 }), 240_000);
  afterAll(() => cluster.stop(), 60_000);

  test('during load: every answer is a clear success or error; acknowledged orders stored once, refused ones never', async () => {
    const load = new OrderLoad(() => cluster.gateways.map(realTime), 6);
    await sleep(3000);
    execFileSync('bash', [path.join(ROOT, 'infra/down.sh'), 'kafka'], { stdio: 'ignore' });
    await sleep(3000);
    execFileSync('bash', [path.join(ROOT, 'infra/up.sh'), 'kafka'], { stdio: 'ignore' });
    await eventually(async () => {
      expect((await clientB(realTime(cluster.gateways[0]!)).post('order/create-order', orderBody())).body.code).toBe(0);
    }, 120_000);
    await sleep(3000);
    await load.stop();

    for (const o of load.failed)
      expect(o.answer).toMatch(/^(500 \{"code":1,"message":"server error","data":\[\]\}|TypeError: fetch failed)/);
    const acknowledged = load.acknowledged;
    expect(acknowledged.length).toBeGreaterThan(10);
    await eventually(async () => {
      const { views } = await storedCounts(
        cluster,
        acknowledged.map((o) => o.ref),
      );
      expect(acknowledged.filter((o) => views.get(o.ref) !== 1).map((o) => o.ref)).toEqual([]);
    }, 60_000);
    const { claims } = await storedCounts(
      cluster,
      load.outcomes.map((o) => o.ref),
    );
    for (const o of acknowledged) expect([o.ref, claims.get(o.ref)]).toEqual([o.ref, 1]);
    for (const o of load.failed) expect([o.ref, claims.get(o.ref) ?? 0]).toEqual([o.ref, 0]);
    console.log(`broker restart: ${acknowledged.length} acknowledged, ${load.failed.length} refused`);
  });
});
