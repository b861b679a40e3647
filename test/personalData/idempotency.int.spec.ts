/**
 * Idempotency answers after erasure, on `npm start`'s wiring (docs/personal-data.md, "Copies"):
 * interface A's create-label sent with an Idempotency-Key is kept with its label (the recipient's
 * name and address in the PDF) and replayed byte for byte; once the parcel's personal data is
 * erased, that answer is gone from every file of the data directory, and the same request with the
 * same key runs anew: `Personal data erased`, with no second LB_GN. An answer that concerns no
 * parcel's personal values (create-order's) is kept and replayed as before.
 */
import { randomUUID } from 'node:crypto';
import { DatabaseSync } from 'node:sqlite';
import path from 'node:path';
import { clientB, DEMO, signedHeaders, tokenFor } from '../support/client.ts';
import { startTestStack } from '../support/stack.ts';
import type { TestStack } from '../support/stack.ts';
import { markedOrder, markers, needles, scanFiles } from './markers.ts';
import type { Markers } from './markers.ts';

let stack: TestStack;
let m: Markers;
let tn: string;
let token: string;
const labelKey = `label-${randomUUID()}`;
const orderKey = `order-${randomUUID()}`;
let order: Record<string, unknown>;
let created: Sent;
let labelled: Sent;

interface Sent {
  status: number;
  replayed: boolean;
  text: string;
  body: any; // eslint-disable-line @typescript-eslint/no-explicit-any
}

const sent = async (res: Response): Promise<Sent> => {
  const text = await res.text();
  return {
    status: res.status,
    replayed: res.headers.get('idempotent-replayed') === 'true',
    text,
    body: JSON.parse(text),
  };
};

const createOrder = async (body: unknown, key: string) =>
  sent(
    await fetch(`${stack.url}/v1/openapi/order/create-order`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'idempotency-key': key,
        ...signedHeaders(stack, DEMO.apiName, DEMO.apiKey),
      },
      body: JSON.stringify(body),
    }),
  );

const createLabel = async () =>
  sent(
    await fetch(`${stack.url}/api/create-label`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}`, 'idempotency-key': labelKey },
      body: JSON.stringify({ Barcode: tn, LabelType: 'CN23', Origin: 'SG', Destination: 'SG' }),
    }),
  );

const labelsRecorded = async () =>
  (await clientB(stack).get('order/query-status', { tracking_num: tn })).body.data.activities.filter(
    (a: { status_code: string }) => a.status_code === 'LB_GN',
  ).length;

/** The kept answers of the demo account, by key. */
const keptAnswers = (): Map<string, string | null> => {
  const db = new DatabaseSync(path.join(stack.dataDir, 'projections.db'), { readOnly: true });
  try {
    const rows = db.prepare('SELECT key, answer_body FROM idempotency').all() as {
      key: string;
      answer_body: string | null;
    }[];
    return new Map(rows.map((row) => [row.key, row.answer_body]));
  } finally {
    db.close();
  }
};

/** A piece of the label's Base64 from its middle, as the kept answer holds it: found in a file only where the label is. */
const labelPiece = () => {
  const base64 = labelled.body.Data.Base64 as string;
  const middle = Math.floor(base64.length / 2);
  return { value: 'the kept label', bytes: Buffer.from(base64.slice(middle, middle + 120), 'utf8') };
};

beforeAll(async () => {
  stack = await startTestStack();
  m = markers();
  order = markedOrder(m);
  created = await createOrder(order, orderKey);
  expect(created.body.code).toBe(0);
  tn = created.body.data.wmg_tracking_num;
  await stack.caughtUp();
  token = await tokenFor(stack);
  labelled = await createLabel();
  expect(labelled.body.Code).toBe(0);
  await stack.caughtUp();
}, 60_000);
afterAll(() => stack.destroy());

test('before erasure: the create-label answer is kept and replayed byte for byte, LB_GN recorded once', async () => {
  const again = await createLabel();
  expect(again.replayed).toBe(true);
  expect(again.text).toBe(labelled.text);
  expect(await labelsRecorded()).toBe(1);
  expect(keptAnswers().get(labelKey)).toBe(labelled.text);
  expect(scanFiles(stack.dataDir, [labelPiece()])).not.toEqual([]);
});

describe('after erasure', () => {
  beforeAll(async () => {
    const reply = await clientB(stack).post('order/erase-personal-data', { tracking_nums: [tn] });
    expect(reply.body.data).toEqual({ success: [tn], errors: [] });
    await stack.caughtUp();
  }, 30_000);

  test('no file of the data directory holds the kept label or a marker', () => {
    expect(keptAnswers().has(labelKey)).toBe(false);
    expect(scanFiles(stack.dataDir, [labelPiece(), ...needles(Object.values(m))])).toEqual([]);
  });

  test('the same create-label with the same key runs anew: Personal data erased, no second LB_GN, no label kept', async () => {
    const replay = await createLabel();
    expect(replay.replayed).toBe(false);
    expect(replay.body).toEqual({ Code: 1, Message: 'Personal data erased', Data: [] });
    expect(await labelsRecorded()).toBe(1);
    // That answer is the key's now, and is replayed as any other.
    const again = await createLabel();
    expect(again.replayed).toBe(true);
    expect(again.text).toBe(replay.text);
    await stack.caughtUp();
    expect(scanFiles(stack.dataDir, [labelPiece(), ...needles(Object.values(m))])).toEqual([]);
  });

  test("create-order's kept answer (no personal value) is replayed as before", async () => {
    const replay = await createOrder(order, orderKey);
    expect(replay.replayed).toBe(true);
    expect(replay.text).toBe(created.text);
  });
});
