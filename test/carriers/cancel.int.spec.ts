/** B6 cancel-orders through the LMX sandbox's deterministic triggers (decisions.md "Carriers, cancellation and carrier events"). */
import { clientA, clientB, OTHER, tokenFor } from '../support/client.ts';
import { registeredParcel } from '../support/carriers.ts';
import { orderBody, PICKUP_ORDER } from '../support/orders.ts';
import { startTestStack } from '../support/stack.ts';
import type { TestStack } from '../support/stack.ts';

let stack: TestStack;
beforeAll(async () => {
  stack = await startTestStack();
});
afterAll(() => stack.destroy());

const cancel = (numbers: unknown, account = { apiName: 'demo', apiKey: 'demo-secret' }) =>
  clientB(stack, account).post('order/cancel-orders', { tracking_nums: numbers });
const statusB = async (tn: string) => (await clientB(stack).get('order/query-status', { tracking_num: tn })).body.data;

describe('B6 cancel-orders', () => {
  test('"success holds the cancelled tracking numbers"; CN_CN "Order cancelled" visible at once on both interfaces', async () => {
    const { tn } = await registeredParcel(stack);
    expect((await cancel([tn])).body).toEqual({ code: 0, message: 'success', data: { success: [tn], errors: [] } });
    expect((await statusB(tn)).activities[0]).toMatchObject({ status_code: 'CN_CN', status_desc: 'Order cancelled' });
    const a = await clientA(stack, await tokenFor(stack)).post('status/lookup', { TrackingNumber: [tn] });
    expect(a.body.Data.Success[0]).toMatchObject({ LastStatus: 'CN_CN' });
  });

  test('"same number submitted again -> listed in data.errors with remarks Canceled"', async () => {
    const { tn } = await registeredParcel(stack);
    await cancel([tn]);
    expect((await cancel([tn])).body).toEqual({
      code: 0,
      message: 'success',
      data: { success: [], errors: [{ tracking_number: tn, remarks: 'Canceled' }] },
    });
  });

  test('"No Record(s)": unknown, another account\'s, and another carrier\'s parcels; code stays 0 when every number fails', async () => {
    const mineGlx = (
      await clientB(stack).post('order/create-order', orderBody({ recipient_country: 'AU', postal_code: '2000' }))
    ).body.data.wmg_tracking_num;
    const others = (await clientB(stack, OTHER).post('order/create-order', orderBody())).body.data.wmg_tracking_num;
    const r = await cancel(['NOPE', others, mineGlx]);
    expect(r.body).toEqual({
      code: 0,
      message: 'success',
      data: {
        success: [],
        errors: ['NOPE', others, mineGlx].map((n) => ({ tracking_number: n, remarks: 'No Record(s)' })),
      },
    });
  });

  test('"Not Found In Partner System (carrier holds no tracking number)": [sandbox:no-partner]', async () => {
    const tn = (
      await clientB(stack).post('order/create-order', orderBody({ instruction: 'Leave at door [sandbox:no-partner]' }))
    ).body.data.wmg_tracking_num;
    await stack.caughtUp();
    expect((await cancel([tn])).body.data.errors).toEqual([
      { tracking_number: tn, remarks: 'Not Found In Partner System' },
    ]);
    expect((await statusB(tn)).last_status).toBe('DR_DR');
  });

  test('"Cancel Fail (carrier interface rejected the batch)": [sandbox:cancel-reject] fails every number of the batch', async () => {
    const rejecting = await registeredParcel(stack, { instruction: '[sandbox:cancel-reject]' });
    const fine = await registeredParcel(stack);
    const r = await cancel([fine.tn, rejecting.tn]);
    expect(r.body).toEqual({
      code: 0,
      message: 'success',
      data: {
        success: [],
        errors: [fine.tn, rejecting.tn].map((n) => ({ tracking_number: n, remarks: 'Cancel Fail' })),
      },
    });
    expect((await statusB(fine.tn)).last_status).toBe('DR_DR');
    expect((await cancel([fine.tn])).body.data.success).toEqual([fine.tn]);
  });

  test('"or the carrier\'s own message passed through": [sandbox:picked-up]', async () => {
    const picked = await registeredParcel(stack, { instruction: '[sandbox:picked-up]' });
    const fine = await registeredParcel(stack);
    const r = await cancel([picked.tn, fine.tn]);
    expect(r.body.data).toEqual({
      success: [fine.tn],
      errors: [{ tracking_number: picked.tn, remarks: 'Parcel already picked up' }],
    });
  });

  test('pickup variant LMX-PU is eligible too', async () => {
    const { tn } = await registeredParcel(stack, PICKUP_ORDER);
    expect((await cancel([tn])).body.data.success).toEqual([tn]);
  });

  test('every submitted number is answered, in order; a repeated number reads as Canceled the second time', async () => {
    const a = await registeredParcel(stack);
    const r = await cancel([a.tn, 'NOPE', a.tn]);
    expect(r.body.data).toEqual({
      success: [a.tn],
      errors: [
        { tracking_number: 'NOPE', remarks: 'No Record(s)' },
        { tracking_number: a.tn, remarks: 'Canceled' },
      ],
    });
  });

  test.each([
    [[], 'tracking_nums required'],
    [undefined, 'tracking_nums required'],
    [Array.from({ length: 101 }, (_, i) => `N${i}`), 'Batch Cancel Maximum 100 tracking nums'],
    ['PX1', 'tracking_nums invalid'],
  ])('"tracking_nums: 1 to 100 entries": %j -> %s', async (numbers, message) => {
    expect((await cancel(numbers)).body).toEqual({ code: 1, message, data: [] });
  });

  test('100 numbers are accepted', async () => {
    const r = await cancel(Array.from({ length: 100 }, (_, i) => `N${i}`));
    expect(r.body.code).toBe(0);
    expect(r.body.data.errors).toHaveLength(100);
  });

  test('decisions.md "Accounts without canCancel: code 1, message Permission denied"', async () => {
    expect((await cancel(['X'], OTHER)).body).toEqual({ code: 1, message: 'Permission denied', data: [] });
  });
});
