/**
 * Personal data that can be forgotten, on `npm start`'s wiring (docs/personal-data.md): orders with a
 * marker in every personal field, labels rendered, a carrier's delivery with its signer and proof;
 * the event store never holds a marker in clear; erase-personal-data erases the account's parcels
 * only; afterwards the parcel still works for what needs no person, labels answer `Personal data
 * erased`, and no file of the data directory (WAL and journals included) holds a marker or the
 * parcel's wrapped key.
 */
import { DatabaseSync } from 'node:sqlite';
import path from 'node:path';
import { eventually, pushEvent, registeredParcel } from '../support/carriers.ts';
import { clientB, OTHER, raw } from '../support/client.ts';
import { startTestStack } from '../support/stack.ts';
import type { TestStack } from '../support/stack.ts';
import { markedDelivery, markedOrder, markers, needles, scanFiles } from './markers.ts';
import type { Markers } from './markers.ts';

let stack: TestStack;
let m: Markers;
let tn: string;
let others: { tn: string; m: Markers };
const dataFiles = () => stack.dataDir;

beforeAll(async () => {
  stack = await startTestStack();
  m = markers();
  const parcel = await registeredParcel(stack, markedOrder(m));
  tn = parcel.tn;
  expect((await pushEvent(stack, markedDelivery(m, parcel.partner))).status).toBe(200);
  await eventually(async () =>
    expect((await clientB(stack).get('order/query-status', { tracking_num: tn })).body.data.last_status).toBe('DL_DL'),
  );
  const otherMarkers = markers();
  const created = await clientB(stack, OTHER).post('order/create-order', markedOrder(otherMarkers));
  expect(created.body.code).toBe(0);
  others = { tn: created.body.data.wmg_tracking_num, m: otherMarkers };
  for (const suffix of ['', '-html', '-zpl'])
    expect(
      (await clientB(stack).get(`order-shipping-label/get-shipping-label${suffix}`, { tracking_num: tn })).body.code,
    ).toBe(0);
  await stack.caughtUp();
}, 60_000);
afterAll(() => stack.destroy());

const wrappedKeyOf = (streamName: string): Buffer | undefined => {
  const db = new DatabaseSync(path.join(stack.dataDir, 'keys.db'), { readOnly: true });
  try {
    const row = db.prepare('SELECT wrapped FROM data_keys WHERE parcel_id = ?').get(streamName) as
      { wrapped: Uint8Array | null } | undefined;
    return row?.wrapped ? Buffer.from(row.wrapped) : undefined;
  } finally {
    db.close();
  }
};

test('before erasure the status shows the personal values, and no event-store file holds one in clear', async () => {
  const status = (await clientB(stack).get('order/query-status', { tracking_num: tn })).body.data;
  expect(JSON.stringify(status)).toContain(m.carrierSigner);
  const eventFiles = needles(Object.values(m));
  const hits = scanFiles(dataFiles(), eventFiles).filter((hit) => hit.startsWith('events.db'));
  expect(hits).toEqual([]);
});

test("erasing another account's parcel, or an unknown number, answers No Record(s) and changes nothing", async () => {
  const reply = await clientB(stack).post('order/erase-personal-data', {
    tracking_nums: [others.tn, 'PXB3X6H0NEVAZ2J9R9'],
  });
  expect(reply.body).toEqual({
    code: 0,
    message: 'success',
    data: {
      success: [],
      errors: [
        { tracking_number: others.tn, remarks: 'No Record(s)' },
        { tracking_number: 'PXB3X6H0NEVAZ2J9R9', remarks: 'No Record(s)' },
      ],
    },
  });
  const theirs = await clientB(stack, OTHER).get('order/query-status', { tracking_num: others.tn });
  expect(theirs.body.code).toBe(0);
  expect(wrappedKeyOf(`parcel-${others.tn}`)).toBeDefined();
});

test('erase-personal-data: validation as cancel-orders (spec envelope, catalogue messages)', async () => {
  const post = (body: unknown) => clientB(stack).post('order/erase-personal-data', body);
  expect((await post({})).body).toEqual({ code: 1, message: 'tracking_nums required', data: [] });
  expect((await post({ tracking_nums: [] })).body).toEqual({ code: 1, message: 'tracking_nums required', data: [] });
  expect((await post({ tracking_nums: [1] })).body).toEqual({ code: 1, message: 'tracking_nums invalid', data: [] });
  expect((await post({ tracking_nums: Array.from({ length: 101 }, () => tn) })).body).toEqual({
    code: 1,
    message: 'Batch Erase Maximum 100 tracking nums',
    data: [],
  });
});

describe('after erasure', () => {
  let wrapped: Buffer;
  beforeAll(async () => {
    wrapped = wrappedKeyOf(`parcel-${tn}`)!;
    expect(wrapped).toBeDefined();
    const reply = await clientB(stack).post('order/erase-personal-data', { tracking_nums: [tn] });
    expect(reply.body).toEqual({ code: 0, message: 'success', data: { success: [tn], errors: [] } });
    await stack.caughtUp();
  }, 30_000);

  test('the parcel still works for what needs no person: status, barcode, tracking page, history', async () => {
    const status = await clientB(stack).get('order/query-status', { tracking_num: tn });
    expect(status.body.code).toBe(0);
    expect(status.body.data.last_status).toBe('DL_DL');
    expect(status.body.data.activities.map((a: { status_code: string }) => a.status_code)).toContain('DR_DR');
    const text = JSON.stringify(status.body);
    for (const value of Object.values(m))
      expect({ value, found: text.includes(value) }).toEqual({ value, found: false });
    const page = await raw(`${stack.url}/track/${tn}.json`, {});
    expect(page.status).toBe(200);
    expect(page.body.data.activities[0].status_code).toBe('DL_DL');
  });

  test('labels answer code 1 `Personal data erased` (PDF, HTML, ZPL)', async () => {
    for (const suffix of ['', '-html', '-zpl'])
      expect(
        (await clientB(stack).get(`order-shipping-label/get-shipping-label${suffix}`, { tracking_num: tn })).body,
      ).toEqual({ code: 1, message: 'Personal data erased', data: [] });
  });

  test('erasing it again answers it in success again', async () => {
    const reply = await clientB(stack).post('order/erase-personal-data', { tracking_nums: [tn, tn] });
    expect(reply.body.data).toEqual({ success: [tn, tn], errors: [] });
  });

  test("the other account's parcel keeps its personal data", async () => {
    const theirs = await clientB(stack, OTHER).get('order/query-status', { tracking_num: others.tn });
    expect(theirs.body.code).toBe(0);
    expect(wrappedKeyOf(`parcel-${others.tn}`)).toBeDefined();
  });

  test('no file of the data directory holds a marker or the erased wrapped key, after a restart too', async () => {
    const found = [...needles(Object.values(m)), { value: 'wrapped key', bytes: wrapped }];
    expect(scanFiles(dataFiles(), found)).toEqual([]);
    stack = await stack.restart();
    await stack.caughtUp();
    expect(scanFiles(dataFiles(), found)).toEqual([]);
  }, 30_000);
});
