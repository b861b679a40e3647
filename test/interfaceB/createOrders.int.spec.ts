/** B2 create-orders with PARCEL_BATCH_CREATE=on (decisions.md "Batch create (B2)"). */
import { clientB } from '../support/client.ts';
import { eventually } from '../support/carriers.ts';
import { orderBody } from '../support/orders.ts';
import { startTestStack } from '../support/stack.ts';
import type { TestStack } from '../support/stack.ts';

let stack: TestStack;
beforeAll(async () => {
  stack = await startTestStack({ PARCEL_BATCH_CREATE: 'on', PARCEL_BATCH_MAX: '3' });
});
afterAll(() => stack.destroy());

describe('B2 create-orders, enabled', () => {
  test('"Intended success shape": Accepted entries in data.success, Rejected in data.errors with a reason; accepted orders are created', async () => {
    const a = orderBody();
    const b = orderBody({ recipient_phone: 'abc' });
    const r = await clientB(stack).post('order/create-orders', { orders: [a, b, { ...a }] });
    expect(r.body).toEqual({
      code: 0,
      message: 'success',
      data: {
        success: [
          {
            custom_tracking_num: a.custom_tracking_num,
            date_time: '2026-11-22T14:05:09+08:00',
            status: 'Accepted',
            error: [],
          },
        ],
        errors: [
          {
            custom_tracking_num: b.custom_tracking_num,
            date_time: '2026-11-22T14:05:09+08:00',
            status: 'Rejected',
            error: [{ reason: 'recipient_phone invalid' }],
          },
          {
            custom_tracking_num: a.custom_tracking_num,
            date_time: '2026-11-22T14:05:09+08:00',
            status: 'Rejected',
            error: [{ reason: `custom_tracking_num (${a.custom_tracking_num}) already exist` }],
          },
        ],
      },
    });
    await eventually(async () => {
      const found = await clientB(stack).get('order/get-barcode', {
        custom_tracking_num: String(a.custom_tracking_num),
      });
      expect(found.body.code).toBe(0);
    });
    expect(
      (await clientB(stack).get('order/get-barcode', { custom_tracking_num: String(b.custom_tracking_num) })).body
        .message,
    ).toBe('Order Not Found!');
  });

  test('a reference created before is rejected with the create-order message', async () => {
    const a = orderBody();
    await clientB(stack).post('order/create-order', a);
    const r = await clientB(stack).post('order/create-orders', { orders: [a] });
    expect(r.body.data.errors[0].error).toEqual([
      { reason: `custom_tracking_num (${a.custom_tracking_num}) already exist` },
    ]);
  });

  test('"The one-time push order data cannot exceed N pieces" with the configured N', async () => {
    const r = await clientB(stack).post('order/create-orders', {
      orders: [orderBody(), orderBody(), orderBody(), orderBody()],
    });
    expect(r.body).toEqual({ code: 1, message: 'The one-time push order data cannot exceed 3 pieces', data: [] });
  });

  test('orders missing or not an array', async () => {
    expect((await clientB(stack).post('order/create-orders', {})).body).toEqual({
      code: 1,
      message: 'orders require',
      data: [],
    });
    expect((await clientB(stack).post('order/create-orders', { orders: 'x' })).body).toEqual({
      code: 1,
      message: 'orders invalid',
      data: [],
    });
  });

  test('an accepted batch is recorded in the event store and its orders are there after a restart', async () => {
    const a = orderBody();
    expect((await clientB(stack).post('order/create-orders', { orders: [a] })).body.data.success).toHaveLength(1);
    stack = await stack.restart();
    await eventually(async () => {
      expect(
        (await clientB(stack).get('order/get-barcode', { custom_tracking_num: String(a.custom_tracking_num) })).body
          .code,
      ).toBe(0);
    });
  });
});
