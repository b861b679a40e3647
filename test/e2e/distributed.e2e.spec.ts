/**
 * Every endpoint of both interfaces through each of two gateways, on separate processes (two
 * gateways, two order, one tracking, one label, the LMX sandbox) over real Kafka, PostgreSQL and
 * mongo-java-server. Writes through one gateway are read through the other at once.
 */
import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { promisify } from 'node:util';
import { formatSgt } from '@parcel-logistics/domain';
import { clientA, clientB, OTHER, realTime, signedHeaders, tokenFor } from '../support/client.ts';
import type { Target } from '../support/client.ts';
import { eventually, pushEvent, registeredParcel } from '../support/carriers.ts';
import { orderBody } from '../support/orders.ts';
import { Cluster } from './support/cluster.ts';

jest.setTimeout(120_000);
const cluster = new Cluster();
let gateways: Target[];
beforeAll(async () => {
  await cluster.startAll();
  gateways = cluster.gateways.map(realTime);
}, 240_000);
afterAll(() => cluster.stop(), 60_000);

describe.each([0, 1])('through gateway %i (and read back through the other)', (i) => {
  const gw = () => gateways[i]!;
  const otherGw = () => gateways[1 - i]!;

  test('B1 create-order, then B3, B4, B10 and A1 on the other gateway see it at once (read-your-writes)', async () => {
    const body = orderBody();
    const created = await clientB(gw()).post('order/create-order', body);
    expect(created.body).toMatchObject({
      code: 0,
      message: 'success',
      data: { custom_tracking_num: body.custom_tracking_num, status: '', error: [] },
    });
    const tn = created.body.data.wmg_tracking_num;
    expect((await clientB(otherGw()).get('order/query-status', { tracking_num: tn })).body.data.last_status).toBe(
      'DR_DR',
    );
    expect(
      (await clientB(otherGw()).post('order/query-multi-status', { tracking_nums: [tn, 'NOPE'] })).body.data.errors,
    ).toEqual([{ tracking_number: 'NOPE', remarks: 'No Record(s)' }]);
    expect(
      (await clientB(otherGw()).get('order/get-barcode', { custom_tracking_num: String(body.custom_tracking_num) }))
        .body.data,
    ).toEqual({ barcode: tn });
    const token = await tokenFor(gw());
    expect(
      (await clientA(otherGw(), token).post('status/lookup', { TrackingNumber: [tn] })).body.Data.Success[0].LastStatus,
    ).toBe('DR_DR');
    expect(
      (await clientA(otherGw(), token).post('tracking-number', { Barcode: body.custom_tracking_num })).body.Data,
    ).toEqual({ TrackingNumber: tn });
    expect((await clientB(gw()).post('order/create-order', body)).body.message).toBe(
      `custom_tracking_num (${body.custom_tracking_num}) already exist`,
    );
  });

  test('a token issued on one gateway supersedes the older one on every gateway', async () => {
    const first = await tokenFor(gw());
    await tokenFor(otherGw());
    expect((await clientA(gw(), first).post('status/lookup', { TrackingNumber: ['x'] })).body).toEqual({
      Code: 1003,
      Message: 'Token error',
      Data: [],
    });
  });

  test('tenant isolation across processes: another account reads the parcel as missing', async () => {
    const tn = (await clientB(gw()).post('order/create-order', orderBody())).body.data.wmg_tracking_num;
    expect((await clientB(otherGw(), OTHER).get('order/query-status', { tracking_num: tn })).body).toEqual({
      code: 1,
      message: 'fail',
      data: { tracking_number: tn, remarks: 'No Record(s)' },
    });
  });

  test('A2 create-label records LB_GN; B7, B8, B9 render the shipping label', async () => {
    const tn = (await clientB(gw()).post('order/create-order', orderBody())).body.data.wmg_tracking_num;
    const token = await tokenFor(gw());
    const label = await clientA(gw(), token).post('create-label', {
      Barcode: tn.toLowerCase(),
      LabelType: 'CN23',
      Origin: 'SG',
      Destination: 'SG',
      Direction: 'vertical',
    });
    expect(label.body.Code).toBe(0);
    expect(Buffer.from(label.body.Data.Base64, 'base64').subarray(0, 5).toString()).toBe('%PDF-');
    expect((await clientB(otherGw()).get('order/query-status', { tracking_num: tn })).body.data.last_status).toBe(
      'LB_GN',
    );
    const pdf = await clientB(otherGw()).get('order-shipping-label/get-shipping-label', { tracking_num: tn });
    expect(Buffer.from(pdf.body.data.base64, 'base64').subarray(0, 5).toString()).toBe('%PDF-');
    expect(
      (await clientB(gw()).get('order-shipping-label/get-shipping-label-html', { tracking_num: tn })).body.data.html,
    ).toContain(tn);
    expect(
      (await clientB(gw()).get('order-shipping-label/get-shipping-label-zpl', { tracking_num: tn })).body.data.zpl,
    ).toMatch(/^\^XA[\s\S]*\^XZ\s*$/);
    expect(
      (await clientB(gw(), OTHER).get('order-shipping-label/get-shipping-label', { tracking_num: tn })).body.message,
    ).toBe('Order Not Found!');
  });

  test('B5 get-stations and B2 create-orders (disabled)', async () => {
    const stations = await clientB(gw()).get('station/get-stations', { postcode: '048618' });
    expect(stations.body.data[0]).toMatchObject({ Station_Code: 'SGL0001', Distance: 0 });
    expect((await clientB(gw()).post('order/create-orders', { orders: [] })).body).toEqual({
      code: 1,
      message: 'Api not found',
      data: [],
    });
  });

  test('carrier registration, a carrier event and B6 cancel-orders', async () => {
    const { tn, partner } = await registeredParcel(gw());
    // Real time here: the pick-up must come after the order's own DR_DR to be the last status.
    const eventTime = formatSgt(new Date(Date.now() + 60_000));
    const pushed = await pushEvent(
      { ...gw(), lmxUrl: cluster.sandboxUrl },
      { partner_tracking_no: partner, event_code: 'PICKED_UP', event_time: eventTime },
    );
    expect(pushed.body.delivered).toBe(true);
    await eventually(async () =>
      expect((await clientB(otherGw()).get('order/query-status', { tracking_num: tn })).body.data.last_status).toBe(
        'PU_PU',
      ),
    );
    expect((await clientB(otherGw()).post('order/cancel-orders', { tracking_nums: [tn] })).body.data).toEqual({
      success: [tn],
      errors: [],
    });
    expect((await clientB(gw()).post('order/cancel-orders', { tracking_nums: [tn] })).body.data.errors).toEqual([
      { tracking_number: tn, remarks: 'Canceled' },
    ]);
  });
});

test('kcat (a real Kafka client) reads a parcel downstream: its events on v2 in order, its personal values then their tombstone on the compacted topic, nothing on v1', async () => {
  // From a minute before this test (record timestamps are the producers' clocks, this machine's):
  // a long-lived broker holds every event of every earlier run, too many to read from the start.
  const since = Date.now() - 60_000;
  const { tn } = await registeredParcel(gateways[0]!);
  const token = await tokenFor(gateways[0]!);
  expect(
    (
      await clientA(gateways[0]!, token).post('create-label', {
        Barcode: tn,
        LabelType: 'CN23',
        Origin: 'SG',
        Destination: 'SG',
      })
    ).body.Code,
  ).toBe(0);
  expect((await clientB(gateways[1]!).post('order/cancel-orders', { tracking_nums: [tn] })).body.data.success).toEqual([
    tn,
  ]);
  expect(
    (await clientB(gateways[0]!).post('order/erase-personal-data', { tracking_nums: [tn] })).body.data.success,
  ).toEqual([tn]);
  const brokers = process.env.PARCEL_KAFKA_BROKERS!;
  /** The values of the parcel's records on a topic since the test began, in order (-Z: a null value reads NULL). */
  const read = async (topic: string): Promise<string[]> => {
    const { stdout } = await promisify(execFile)(
      'kcat',
      ['-C', '-b', brokers, '-t', topic, '-o', `s@${since}`, '-e', '-q', '-Z', '-f', '%k\t%s\n'],
      { maxBuffer: 256 * 1024 * 1024 },
    );
    return stdout
      .split('\n')
      .filter((line) => line.startsWith(`${tn}\t`))
      .map((line) => line.slice(tn.length + 1));
  };
  await eventually(async () => {
    const mine = (await read('parcel.events.v2')).map((text) => JSON.parse(text));
    const events = [...new Map(mine.map((m) => [m.eventId, m])).values()];
    expect(events.map((m) => m.statusCode).filter((c) => c !== null)).toEqual(['DR_DR', 'LB_GN', 'CN_CN']);
    expect(events.at(-1)).toMatchObject({ type: 'PersonalDataErased', personalData: 'erased' });
    expect(events[0]).toMatchObject({ personalData: 'available', data: { order: { recipient_name: '' } } });
    expect(mine.every((m) => m.trackingNumber === tn && m.clientId === 'demo')).toBe(true);

    const personal = await read('parcel.personal.v1');
    expect(personal.at(-1)).toBe('NULL');
    expect(JSON.parse(personal[0]!)).toMatchObject({ trackingNumber: tn, clientId: 'demo' });
    expect(JSON.parse(personal[0]!).recipient.name).not.toBe('');
  }, 60_000);
  // parcel.events.v1 is off by default (PARCEL_DOWNSTREAM_V1): the publisher, done with v2, sent it nothing.
  expect(await read('parcel.events.v1')).toEqual([]);
});

describe('idempotent retries and the API reference on the distributed tier', () => {
  const send = (gw: Target, key: string, body: unknown) =>
    fetch(`${gw.url}/v1/openapi/order/create-order`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'idempotency-key': key, ...signedHeaders(gw) },
      body: JSON.stringify(body),
    }).then(async (r) => ({ text: await r.text(), replayed: r.headers.get('idempotent-replayed') }));

  test('an Idempotency-Key holds across gateway processes: the retry on the other gateway gets the same bytes', async () => {
    const key = `e2e-${randomUUID()}`;
    const body = orderBody();
    const first = await send(gateways[0]!, key, body);
    expect(JSON.parse(first.text).code).toBe(0);
    const again = await send(gateways[1]!, key, body);
    expect(again).toEqual({ text: first.text, replayed: 'true' });
  });

  test('concurrent requests with one key through both gateways: exactly one does the work', async () => {
    const key = `e2e-${randomUUID()}`;
    const body = orderBody();
    const replies = await Promise.all(Array.from({ length: 12 }, (_, i) => send(gateways[i % 2]!, key, body)));
    expect(new Set(replies.map((r) => r.text)).size).toBe(1);
    expect(JSON.parse(replies[0]!.text).code).toBe(0);
    expect(replies.filter((r) => r.replayed === null)).toHaveLength(1);
  });

  test('each gateway serves the same OpenAPI document, and the docs page', async () => {
    const [a, b] = await Promise.all(gateways.map((gw) => fetch(`${gw.url}/openapi.json`).then((r) => r.text())));
    expect(a).toBe(b);
    expect(JSON.parse(a!).openapi).toBe('3.1.0');
    expect((await fetch(`${gateways[0]!.url}/docs`)).headers.get('content-security-policy')).toContain(
      "default-src 'none'",
    );
  });
});
