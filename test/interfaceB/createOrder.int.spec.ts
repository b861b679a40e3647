import { isValidTrackingNumber } from '@parcel-logistics/domain';
import { clientA, clientB, OTHER, tokenFor } from '../support/client.ts';
import { orderBody, uniqueRef } from '../support/orders.ts';
import { startTestStack } from '../support/stack.ts';
import type { TestStack } from '../support/stack.ts';

let stack: TestStack;
beforeAll(async () => {
  stack = await startTestStack();
});
afterAll(() => stack.destroy());

describe('B1 create-order', () => {
  test('"Success: HTTP 200, code 0, message success, data = order creation result"', async () => {
    const body = orderBody();
    const r = await clientB(stack).post('order/create-order', body);
    expect(r.status).toBe(200);
    expect(r.body).toEqual({
      code: 0,
      message: 'success',
      data: {
        custom_tracking_num: body.custom_tracking_num,
        wmg_tracking_num: expect.any(String),
        date_time: '2026-11-22T14:05:09+08:00',
        status: '',
        error: [],
      },
    });
    expect(isValidTrackingNumber(r.body.data.wmg_tracking_num)).toBe(true);
  });

  test('"custom_tracking_num (XXX) already exist" for a reference the client used before; another client may use it', async () => {
    const body = orderBody();
    expect((await clientB(stack).post('order/create-order', body)).body.code).toBe(0);
    const again = await clientB(stack).post('order/create-order', { ...body, recipient_name: 'Someone else' });
    expect(again.body).toEqual({
      code: 1,
      message: `custom_tracking_num (${body.custom_tracking_num}) already exist`,
      data: [],
    });
    expect((await clientB(stack, OTHER).post('order/create-order', body)).body.code).toBe(0);
  });

  test.each([
    ['a string', 'SGL0001'],
    ['a number', 7],
    ['an array', [{ station_code: 'SGL0001' }]],
  ])(
    'decisions.md "wrong type: <field> invalid": locker_station sent as %s answers locker_station invalid',
    async (_kind, lockerStation) => {
      const r = await clientB(stack).post(
        'order/create-order',
        orderBody({ locker_type: 'A', locker_station: lockerStation }),
      );
      expect(r.body).toEqual({ code: 1, message: 'locker_station invalid', data: [] });
    },
  );

  test('decisions.md: 50 concurrent create-orders with one custom_tracking_num give exactly one success', async () => {
    const body = orderBody();
    const replies = await Promise.all(
      Array.from({ length: 50 }, () => clientB(stack).post('order/create-order', body)),
    );
    const ok = replies.filter((r) => r.body.code === 0);
    expect(ok).toHaveLength(1);
    for (const r of replies.filter((x) => x.body.code !== 0)) {
      expect(r.body).toEqual({
        code: 1,
        message: `custom_tracking_num (${body.custom_tracking_num}) already exist`,
        data: [],
      });
    }
    const barcode = await clientB(stack).get('order/get-barcode', {
      custom_tracking_num: String(body.custom_tracking_num),
    });
    expect(barcode.body.data.barcode).toBe(ok[0]!.body.data.wmg_tracking_num);
  });

  test('decisions.md "Read-your-writes": every query endpoint sees the parcel once create-order has answered', async () => {
    const token = await tokenFor(stack);
    for (let i = 0; i < 20; i++) {
      const body = orderBody();
      const tn = (await clientB(stack).post('order/create-order', body)).body.data.wmg_tracking_num as string;
      const [b3, b4, b10, a1, aRef] = await Promise.all([
        clientB(stack).get('order/query-status', { tracking_num: tn }),
        clientB(stack).post('order/query-multi-status', { tracking_nums: [tn] }),
        clientB(stack).get('order/get-barcode', { custom_tracking_num: String(body.custom_tracking_num) }),
        clientA(stack, token).post('status/lookup', { TrackingNumber: [tn] }),
        clientA(stack, token).post('tracking-number', { Barcode: body.custom_tracking_num }),
      ]);
      expect(b3.body.data.last_status).toBe('DR_DR');
      expect(b4.body.data.success).toHaveLength(1);
      expect(b10.body.data.barcode).toBe(tn);
      expect(a1.body.Data.Success[0].LastStatus).toBe('DR_DR');
      expect(aRef.body.Data.TrackingNumber).toBe(tn);
    }
  });

  test('a validation failure is code 1 with the field message and data [] (decisions.md "the first failure is the message")', async () => {
    const r = await clientB(stack).post(
      'order/create-order',
      orderBody({ recipient_phone: '65-9123', client_weight: 'heavy' }),
    );
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ code: 1, message: 'recipient_phone invalid', data: [] });
  });

  test.each([
    [{ recipient_country: 'FR' }, 'recipient_country(FR) not allow'],
    [
      { recipient_country: 'US', recipient_state: 'CA', postal_code: '94105', service_code: 'XXX' },
      'Service code invalid',
    ],
    [{ recipient_country: 'SG', service_code: 'ZZZ' }, 'Service code (ZZZ) invalid'],
    [{ client_size: '10,20' }, 'Client Size invalid'],
    [{ client_weight: undefined }, 'client_weight require'],
    [
      { item: [{ description: 'x', quantity: 1, weight: 1, currency: 'SGD', totalValue: 1 }] },
      'Item 1 unitPrice require',
    ],
    [{ service_type: 'PUD' }, 'sender_name require'],
    [{ service_type: 'SLF', recipient_country: 'SG' }, null],
  ])('spec Errors table through HTTP: %j -> %s', async (overrides, message) => {
    const r = await clientB(stack).post('order/create-order', orderBody(overrides));
    if (message === null) expect(r.body.code).toBe(0);
    else expect(r.body).toEqual({ code: 1, message, data: [] });
  });

  test('a failed create leaves nothing behind: the reference stays free', async () => {
    const ref = uniqueRef();
    expect(
      (await clientB(stack).post('order/create-order', orderBody({ custom_tracking_num: ref, recipient_phone: 'x' })))
        .body.code,
    ).toBe(1);
    expect((await clientB(stack).get('order/get-barcode', { custom_tracking_num: ref })).body.message).toBe(
      'Order Not Found!',
    );
    expect((await clientB(stack).post('order/create-order', orderBody({ custom_tracking_num: ref }))).body.code).toBe(
      0,
    );
  });

  test('B2 create-orders "every request returns code 1, message Api not found, data [], whatever the payload"', async () => {
    for (const body of [{ orders: [orderBody()] }, {}, { orders: 'x' }]) {
      const r = await clientB(stack).post('order/create-orders', body);
      expect(r.status).toBe(200);
      expect(r.body).toEqual({ code: 1, message: 'Api not found', data: [] });
    }
  });
});
