import { clientB, OTHER } from '../support/client.ts';
import { orderBody } from '../support/orders.ts';
import { startTestStack } from '../support/stack.ts';
import type { TestStack } from '../support/stack.ts';

let stack: TestStack;
let tn: string;
let ref: string;
beforeAll(async () => {
  stack = await startTestStack();
  // To Australia (GLX): no carrier registration, so the partner fields stay empty.
  const body = orderBody({ sender_country: 'MY', recipient_country: 'AU', postal_code: '2000' });
  ref = body.custom_tracking_num as string;
  tn = (await clientB(stack).post('order/create-order', body)).body.data.wmg_tracking_num;
});
afterAll(() => stack.destroy());

describe('B3 query-status', () => {
  test('"Success: code 0, message success, data = status record B"', async () => {
    const r = await clientB(stack).get('order/query-status', { tracking_num: tn });
    expect(r.body).toEqual({
      code: 0,
      message: 'success',
      data: {
        tracking_number: tn,
        last_status: 'DR_DR',
        last_status_date_time: '2026-11-22T14:05:09+08:00',
        activities: [
          {
            status_date_time: '2026-11-22T14:05:09+08:00',
            status_code: 'DR_DR',
            status_desc: 'Data Received via API',
            remarks: '',
            receive_by: '',
            pod: [],
            location: 'MY',
          },
        ],
        partner_tracking_no: '',
        partner_name: '',
      },
    });
  });

  test('"Not found under the client: code 1, message fail, data = { tracking_number, remarks: No Record(s) }"', async () => {
    const r = await clientB(stack).get('order/query-status', { tracking_num: 'PX0000NOPE' });
    expect(r.body).toEqual({
      code: 1,
      message: 'fail',
      data: { tracking_number: 'PX0000NOPE', remarks: 'No Record(s)' },
    });
  });

  test('"Each account sees only its own parcels": another account gets exactly the not-found answer', async () => {
    const r = await clientB(stack, OTHER).get('order/query-status', { tracking_num: tn });
    expect(r.body).toEqual({ code: 1, message: 'fail', data: { tracking_number: tn, remarks: 'No Record(s)' } });
  });

  test('tracking numbers are matched exactly: lower case is not found', async () => {
    expect((await clientB(stack).get('order/query-status', { tracking_num: tn.toLowerCase() })).body.message).toBe(
      'fail',
    );
  });

  test('"tracking_num: string, required": missing -> tracking_num require; repeated -> tracking_num invalid', async () => {
    expect((await clientB(stack).get('order/query-status')).body).toEqual({
      code: 1,
      message: 'tracking_num require',
      data: [],
    });
    const r = await fetch(`${stack.url}/v1/openapi/order/query-status?tracking_num=a&tracking_num=b`, {
      headers: { ...(await import('../support/client.ts')).signedHeaders(stack) },
    });
    expect(await r.json()).toEqual({ code: 1, message: 'tracking_num invalid', data: [] });
  });
});

describe('B4 query-multi-status', () => {
  test('"numbers with records go to success; others to errors with remarks No Record(s)"; order kept', async () => {
    const r = await clientB(stack).post('order/query-multi-status', { tracking_nums: ['NOPE1', tn, 'NOPE2'] });
    expect(r.body.code).toBe(0);
    expect(r.body.message).toBe('success');
    expect(r.body.data.success.map((s: { tracking_number: string }) => s.tracking_number)).toEqual([tn]);
    expect(r.body.data.errors).toEqual([
      { tracking_number: 'NOPE1', remarks: 'No Record(s)' },
      { tracking_number: 'NOPE2', remarks: 'No Record(s)' },
    ]);
  });

  test('"An empty array returns code 0 with both arrays empty"', async () => {
    expect((await clientB(stack).post('order/query-multi-status', { tracking_nums: [] })).body).toEqual({
      code: 0,
      message: 'success',
      data: { success: [], errors: [] },
    });
  });

  test.each([[{}], [{ tracking_nums: tn }], [{ tracking_nums: [1, 2] }], [{ tracking_nums: null }]])(
    '"An omitted field or a string instead of an array returns code 1, message something error": %j',
    async (body) => {
      expect((await clientB(stack).post('order/query-multi-status', body)).body).toEqual({
        code: 1,
        message: 'something error',
        data: [],
      });
    },
  );

  test("another account's number is reported in errors, never as a permission error", async () => {
    const r = await clientB(stack, OTHER).post('order/query-multi-status', { tracking_nums: [tn] });
    expect(r.body).toEqual({
      code: 0,
      message: 'success',
      data: { success: [], errors: [{ tracking_number: tn, remarks: 'No Record(s)' }] },
    });
  });
});

describe('B10 get-barcode', () => {
  test('"Success: code 0, data = { barcode: string }, the platform tracking number"', async () => {
    expect((await clientB(stack).get('order/get-barcode', { custom_tracking_num: ref })).body).toEqual({
      code: 0,
      message: 'success',
      data: { barcode: tn },
    });
  });

  test('"must equal the value used at creation, case-sensitive": another case is Order Not Found!', async () => {
    expect((await clientB(stack).get('order/get-barcode', { custom_tracking_num: ref.toLowerCase() })).body).toEqual({
      code: 1,
      message: 'Order Not Found!',
      data: [],
    });
  });

  test("another account's reference: Order Not Found!; missing parameter: custom_tracking_num require", async () => {
    expect((await clientB(stack, OTHER).get('order/get-barcode', { custom_tracking_num: ref })).body).toEqual({
      code: 1,
      message: 'Order Not Found!',
      data: [],
    });
    expect((await clientB(stack).get('order/get-barcode')).body).toEqual({
      code: 1,
      message: 'custom_tracking_num require',
      data: [],
    });
  });
});
