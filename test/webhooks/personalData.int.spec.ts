/**
 * Webhooks carry the `parcel.events.v2` body (docs/webhooks.md): an order with a marker in every
 * personal field and a carrier's delivery with its signer and proof reach the endpoint without any
 * of them, the delivery log (webhooks.db, WAL included) holds none, and the erasure reaches the
 * endpoint as `PersonalDataErased`, its parcel's events marked `erased` from then on.
 */
import path from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { eventually, pushEvent, registeredParcel } from '../support/carriers.ts';
import { clientB, DEMO } from '../support/client.ts';
import { markedDelivery, markedOrder, markers, needles, scanFiles } from '../personalData/markers.ts';
import { subscribe, useStackAndReceiver } from './support.ts';

const t = useStackAndReceiver({}, { realTime: true });

test('no personal value in a webhook body or the delivery log; the erasure is an event of its own', async () => {
  await subscribe(clientB(t.stack, DEMO), t.receiver, {
    url: `${t.receiver.url}/demo`,
    event_types: ['ParcelRegistered', 'CarrierEventRecorded', 'PersonalDataErased'],
  });

  const m = markers();
  const { tn, partner } = await registeredParcel(t.stack, markedOrder(m));
  expect((await pushEvent(t.stack, markedDelivery(m, partner))).status).toBe(200);
  const mine = async () => (await t.receiver.received()).filter((r) => r.body.trackingNumber === tn);
  await eventually(async () =>
    expect((await mine()).map((r) => r.body.type)).toEqual(['ParcelRegistered', 'CarrierEventRecorded']),
  );
  const erased = await clientB(t.stack, DEMO).post('order/erase-personal-data', { tracking_nums: [tn] });
  expect(erased.body.data.success).toEqual([tn]);
  await eventually(async () => expect((await mine()).map((r) => r.body.type)).toContain('PersonalDataErased'));

  const got = await mine();
  expect(got.every((r) => r.verified)).toBe(true);
  expect(got.map((r) => [r.body.type, r.body.personalData])).toEqual([
    ['ParcelRegistered', 'available'],
    ['CarrierEventRecorded', 'available'],
    ['PersonalDataErased', 'erased'],
  ]);
  const delivered = got.find((r) => r.body.type === 'CarrierEventRecorded')!.body;
  expect(delivered.data).toMatchObject({ statusCode: 'DL_DL', remarks: '', receiveBy: '', pod: [] });
  const sent = JSON.stringify(got.map((r) => r.body));
  for (const value of Object.values(m)) expect(sent).not.toContain(value);

  const db = new DatabaseSync(path.join(t.stack.dataDir, 'webhooks.db'), { readOnly: true });
  let rows: { body: string }[];
  try {
    rows = db.prepare('SELECT body FROM webhook_deliveries').all() as unknown as { body: string }[];
  } finally {
    db.close();
  }
  expect(rows.filter((row) => row.body.includes(tn))).toHaveLength(3);
  for (const row of rows) for (const value of Object.values(m)) expect(row.body).not.toContain(value);
  const hits = scanFiles(t.stack.dataDir, needles(Object.values(m))).filter((hit) => hit.startsWith('webhooks.db'));
  expect(hits).toEqual([]);
}, 60_000);
