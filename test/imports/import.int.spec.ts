/** import-orders and get-import against the embedded server (docs/bulk.md, "Importing orders from a CSV file"). */
import type { ImportResult } from '@parcel-logistics/contracts';
import { clientB, OTHER } from '../support/client.ts';
import { eventually } from '../support/carriers.ts';
import { bodiesWithRefusedRows, csvOf, orderBody, refusalsOf } from '../support/orders.ts';
import { startTestStack } from '../support/stack.ts';
import type { TestStack } from '../support/stack.ts';

// An import of 1,000 rows takes seconds; a busy machine (the int suites run side by side) may double it.
jest.setTimeout(60_000);

let stack: TestStack;
beforeAll(async () => {
  stack = await startTestStack({ PARCEL_RATE_LIMIT_RPS: '1000', PARCEL_RATE_LIMIT_BURST: '2000' });
});
afterAll(() => stack.destroy());

const finished = async (importId: string, account = undefined as typeof OTHER | undefined) => {
  let data: Partial<ImportResult> = {};
  await eventually(async () => {
    const r = await clientB(stack, account).get('order/get-import', { import_id: importId });
    expect(r.body.code).toBe(0);
    data = r.body.data;
    expect(data.state).toBe('finished');
  }, 60_000);
  return data;
};

describe('import-orders', () => {
  test('1,000 rows with 10 bad ones: exactly those 10 are rejected, each with create-order’s own message, and the 990 others are created', async () => {
    const { bodies, badRows } = bodiesWithRefusedRows(1000, (i) => 37 + i * 97);
    const expected = await refusalsOf(clientB(stack), bodies, badRows);
    expect(new Set(expected.map((e) => e.message)).size).toBe(10);

    const r = await clientB(stack).csv('order/import-orders', csvOf(bodies));
    expect(r.body).toMatchObject({
      code: 0,
      message: 'success',
      data: { rows: 1000, accepted: 990, rejected: 10, errors: expected },
    });
    const done = await finished(r.body.data.import_id);
    expect(done).toMatchObject({ rows: 1000, accepted: 990, rejected: 10, created: 990, errors: expected });

    const good = bodies.filter((_, i) => !badRows.includes(i + 1));
    for (const body of [good[0]!, good[500]!, good.at(-1)!]) {
      const found = await clientB(stack).get('order/get-barcode', {
        custom_tracking_num: String(body.custom_tracking_num),
      });
      expect(found.body.code).toBe(0);
    }
    const refused = await clientB(stack).get('order/get-barcode', {
      custom_tracking_num: String(bodies[badRows[0]! - 1]!.custom_tracking_num),
    });
    expect(refused.body.message).toBe('Order Not Found!');
  });

  test('a reference repeated in the file is refused after its first row; one another order took is refused on creation', async () => {
    const taken = orderBody();
    expect((await clientB(stack).post('order/create-order', taken)).body.code).toBe(0);
    const a = orderBody();
    const file = csvOf([a, { ...orderBody(), custom_tracking_num: a.custom_tracking_num }, taken]);
    const r = await clientB(stack).csv('order/import-orders', file);
    const exists = (ref: unknown) => `custom_tracking_num (${String(ref)}) already exist`;
    expect(r.body.data).toMatchObject({
      rows: 3,
      accepted: 2,
      rejected: 1,
      errors: [{ row: 2, custom_tracking_num: a.custom_tracking_num, message: exists(a.custom_tracking_num) }],
    });
    const done = await finished(r.body.data.import_id);
    expect(done).toMatchObject({
      created: 1,
      rejected: 2,
      errors: [
        { row: 2, custom_tracking_num: a.custom_tracking_num, message: exists(a.custom_tracking_num) },
        { row: 3, custom_tracking_num: taken.custom_tracking_num, message: exists(taken.custom_tracking_num) },
      ],
    });
  });

  test('every refused row is counted; the answers list the first 1,000', async () => {
    const bodies = Array.from({ length: 1500 }, () => orderBody({ recipient_phone: 'abc' }));
    bodies.push(orderBody());
    const r = await clientB(stack).csv('order/import-orders', csvOf(bodies));
    expect(r.body.data).toMatchObject({ rows: 1501, accepted: 1, rejected: 1500 });
    expect(r.body.data.errors).toHaveLength(1000);
    expect(r.body.data.errors.at(-1)).toMatchObject({ row: 1000, message: 'recipient_phone invalid' });
    const done = await finished(r.body.data.import_id);
    expect(done).toMatchObject({ rows: 1501, accepted: 1, rejected: 1500, created: 1 });
    expect(done.errors).toHaveLength(1000);
  });

  test('an Idempotency-Key makes a resent file the same import', async () => {
    const file = csvOf([orderBody(), orderBody()]);
    const key = `import-${Date.now()}`;
    const first = await clientB(stack).csv('order/import-orders', file, { 'idempotency-key': key });
    const again = await clientB(stack).csv('order/import-orders', file, { 'idempotency-key': key });
    expect(again.body).toEqual(first.body);
    const done = await finished(first.body.data.import_id);
    expect(done).toMatchObject({ created: 2, rejected: 0 });
  });

  test('another account’s import reads as unknown', async () => {
    const r = await clientB(stack).csv('order/import-orders', csvOf([orderBody()]));
    const other = await clientB(stack, OTHER).get('order/get-import', { import_id: r.body.data.import_id });
    expect(other.body).toEqual({ code: 1, message: 'Import not found', data: [] });
  });

  test('limits and malformed files: the documented message', async () => {
    const post = (file: string | Buffer) => clientB(stack).csv('order/import-orders', file);
    const fail = (message: string) => ({ code: 1, message, data: [] });
    expect((await post('custom_tracking_num,colour\r\nX,red\r\n')).body).toEqual(fail('Unknown column: colour'));
    expect((await post('item[50].description\r\nX\r\n')).body).toEqual(fail('Unknown column: item[50].description'));
    expect((await post('recipient_name,recipient_name\r\na,b\r\n')).body).toEqual(
      fail('Duplicate column: recipient_name'),
    );
    expect((await post('custom_tracking_num,recipient_name\r\n')).body).toEqual(fail('The file has no orders'));
    expect((await post('custom_tracking_num,recipient_name\r\n"A,b\r\n')).body).toEqual(fail('CSV invalid at row 1'));
    expect((await post('custom_tracking_num,recipient_name\r\nA\r\nB,c\r\n')).body).toEqual(
      fail('CSV invalid at row 1'),
    );
    expect((await post('custom_tracking_num,recipient_name\r\nA,b\r\nB,c,d\r\n')).body).toEqual(
      fail('CSV invalid at row 2'),
    );
    expect((await post(Buffer.from([0x63, 0x0a, 0xff, 0xfe]))).body).toEqual(fail('The file is not UTF-8'));
    const wide = Array.from({ length: 257 }, (_, i) => `item[${i % 50}].x${i}`).join(',');
    expect((await post(`${wide}\r\n`)).body).toEqual(fail('The file cannot have more than 256 columns'));
    const many = `custom_tracking_num\r\n${Array.from({ length: 10_001 }, (_, i) => `R${i}`).join('\r\n')}\r\n`;
    expect((await post(many)).body).toEqual(fail('The file cannot have more than 10000 orders'));
    const json = await clientB(stack).post('order/import-orders', { orders: [] });
    expect(json.body).toEqual(fail('Content-Type must be text/csv'));
  });
});
