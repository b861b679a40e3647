/**
 * Personal data that can be forgotten, on the distributed wiring (docs/personal-data.md): two
 * gateways, two order services, tracking, label and the LMX sandbox over real Kafka, PostgreSQL and
 * mongo-java-server. Orders with a marker in every personal field, labels rendered, a delivery with
 * its signer; before erasure no event-store row holds a marker in clear; after erasure no row of
 * any table of the run's schemas (events, keys, webhooks) and no document of any collection of its
 * MongoDB database holds a marker.
 */
import { MongoClient } from 'mongodb';
import pg from 'pg';
import { eventually, pushEvent, registeredParcel } from '../support/carriers.ts';
import { clientB, realTime } from '../support/client.ts';
import type { Target } from '../support/client.ts';
import { Cluster, requireInfra } from '../e2e/support/cluster.ts';
import { markedDelivery, markedOrder, markers } from './markers.ts';
import type { Markers } from './markers.ts';

jest.setTimeout(120_000);
const cluster = new Cluster();
let gateways: Target[];
let m: Markers;
let tn: string;

beforeAll(async () => {
  await cluster.startAll();
  gateways = cluster.gateways.map(realTime);
  m = markers();
  const target = { ...gateways[0]!, lmxUrl: cluster.sandboxUrl };
  const parcel = await registeredParcel(target, markedOrder(m));
  tn = parcel.tn;
  expect((await pushEvent(target, markedDelivery(m, parcel.partner, new Date().toISOString()))).status).toBe(200);
  await eventually(async () =>
    expect((await clientB(gateways[1]!).get('order/query-status', { tracking_num: tn })).body.data.last_status).toBe(
      'DL_DL',
    ),
  );
  for (const suffix of ['', '-html', '-zpl'])
    expect(
      (await clientB(gateways[1]!).get(`order-shipping-label/get-shipping-label${suffix}`, { tracking_num: tn })).body
        .code,
    ).toBe(0);
}, 240_000);
afterAll(() => cluster.stop(), 60_000);

/** Every row of every table of the run's schemas, as text, with the table it came from. */
async function postgresRows(): Promise<{ table: string; text: string }[]> {
  const db = new pg.Client({ connectionString: requireInfra().pg });
  await db.connect();
  try {
    const schemas = [cluster.runId, `${cluster.runId}_keys`];
    const tables = await db.query<{ schema: string; name: string }>(
      `SELECT table_schema AS schema, table_name AS name FROM information_schema.tables WHERE table_schema = ANY($1)`,
      [schemas],
    );
    const rows: { table: string; text: string }[] = [];
    for (const { schema, name } of tables.rows) {
      const found = await db.query<{ text: string }>(`SELECT t::text AS text FROM "${schema}"."${name}" AS t`);
      for (const r of found.rows) rows.push({ table: `${schema}.${name}`, text: r.text });
    }
    return rows;
  } finally {
    await db.end();
  }
}

async function mongoDocuments(): Promise<{ collection: string; text: string }[]> {
  const mongo = new MongoClient(requireInfra().mongo);
  await mongo.connect();
  try {
    const db = mongo.db(cluster.runId);
    const docs: { collection: string; text: string }[] = [];
    for (const { name } of await db.listCollections().toArray())
      for (const doc of await db.collection(name).find().toArray())
        docs.push({ collection: name, text: JSON.stringify(doc) });
    return docs;
  } finally {
    await mongo.close();
  }
}

const hits = (rows: { text: string }[], where: (row: never) => string) =>
  rows.flatMap((row) =>
    Object.values(m)
      .filter((value) => row.text.includes(value))
      .map((value) => `${where(row as never)}: ${value}`),
  );

test('before erasure no event row holds a personal value in clear; the view does', async () => {
  const rows = await postgresRows();
  expect(rows.some((r) => r.table.endsWith('.events'))).toBe(true);
  expect(
    hits(
      rows.filter((r) => r.table.endsWith('.events')),
      (r: { table: string }) => r.table,
    ),
  ).toEqual([]);
  const docs = await mongoDocuments();
  expect(docs.some((d) => d.text.includes(m.recipientName))).toBe(true);
});

test('after erasure through one gateway, no PostgreSQL row and no MongoDB document holds a marker', async () => {
  const reply = await clientB(gateways[0]!).post('order/erase-personal-data', { tracking_nums: [tn] });
  expect(reply.body).toEqual({ code: 0, message: 'success', data: { success: [tn], errors: [] } });
  const status = await clientB(gateways[1]!).get('order/query-status', { tracking_num: tn });
  expect(status.body.data.last_status).toBe('DL_DL');
  expect(JSON.stringify(status.body)).not.toContain(m.recipientName);
  expect(
    (await clientB(gateways[1]!).get('order-shipping-label/get-shipping-label', { tracking_num: tn })).body,
  ).toEqual({ code: 1, message: 'Personal data erased', data: [] });
  await eventually(async () => {
    expect(hits(await postgresRows(), (r: { table: string }) => r.table)).toEqual([]);
    expect(hits(await mongoDocuments(), (d: { collection: string }) => d.collection)).toEqual([]);
  });
});
