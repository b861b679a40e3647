/**
 * B2 create-orders and a CSV import with personal values (docs/personal-data.md): the batch's event
 * (an import's part) is sealed with the batch's own key, destroyed once its orders are created;
 * after the parcel is erased, no file of the data directory holds its values, the batch's copy included.
 */
import path from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { eventually } from '../support/carriers.ts';
import { clientB } from '../support/client.ts';
import { csvOf } from '../support/orders.ts';
import { startTestStack } from '../support/stack.ts';
import type { TestStack } from '../support/stack.ts';
import { markedOrder, markers, needles, scanFiles } from './markers.ts';

let stack: TestStack;
beforeAll(async () => {
  stack = await startTestStack({ PARCEL_BATCH_CREATE: 'on' });
});
afterAll(() => stack.destroy());

const batchKeys = () => {
  const db = new DatabaseSync(path.join(stack.dataDir, 'keys.db'), { readOnly: true });
  try {
    return db
      .prepare("SELECT parcel_id, wrapped IS NULL AS destroyed FROM data_keys WHERE parcel_id LIKE 'batch-%'")
      .all() as {
      parcel_id: string;
      destroyed: number;
    }[];
  } finally {
    db.close();
  }
};

const ways = {
  'B2 create-orders': (body: Record<string, unknown>) => clientB(stack).post('order/create-orders', { orders: [body] }),
  'import-orders': (body: Record<string, unknown>) => clientB(stack).csv('order/import-orders', csvOf([body])),
};

test.each(Object.keys(ways) as (keyof typeof ways)[])(
  "%s: a batch's key is destroyed once its orders exist; the erased parcel's values are then nowhere",
  async (way) => {
    const m = markers();
    const body = markedOrder(m);
    const before = new Set(batchKeys().map((k) => k.parcel_id));
    const accepted = await ways[way](body);
    expect(accepted.body.code).toBe(0);
    let tn = '';
    await eventually(async () => {
      const found = await clientB(stack).get('order/get-barcode', {
        custom_tracking_num: String(body.custom_tracking_num),
      });
      expect(found.body.code).toBe(0);
      tn = found.body.data.barcode;
    });
    await stack.caughtUp();
    await eventually(async () =>
      expect(batchKeys().filter((k) => !before.has(k.parcel_id))).toEqual([
        { parcel_id: expect.stringMatching(/^batch-/), destroyed: 1 },
      ]),
    );
    const status = await clientB(stack).get('order/query-status', { tracking_num: tn });
    expect(status.body.code).toBe(0);

    expect((await clientB(stack).post('order/erase-personal-data', { tracking_nums: [tn] })).body.data.success).toEqual(
      [tn],
    );
    await stack.caughtUp();
    expect(scanFiles(stack.dataDir, needles(Object.values(m)))).toEqual([]);
  },
);
