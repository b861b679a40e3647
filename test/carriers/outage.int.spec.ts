/** The LMX sandbox stopped: create-order still succeeds, registration catches up, cancel answers Cancel Fail. */
import { clientB } from '../support/client.ts';
import { eventually, registeredParcel } from '../support/carriers.ts';
import { orderBody } from '../support/orders.ts';
import { startTestStack } from '../support/stack.ts';
import type { TestStack } from '../support/stack.ts';

let stack: TestStack;
beforeAll(async () => {
  stack = await startTestStack();
});
afterAll(() => stack.destroy());

test('carrier outage: orders are taken, registration is retried until the carrier is back, cancel changes nothing', async () => {
  const before = await registeredParcel(stack);
  const port = Number(new URL(stack.lmxUrl).port);
  await stack.sandbox!.close();

  const created = await clientB(stack).post('order/create-order', orderBody());
  expect(created.body.code).toBe(0);
  const tn = created.body.data.wmg_tracking_num;

  const cancel = await clientB(stack).post('order/cancel-orders', { tracking_nums: [before.tn] });
  expect(cancel.body).toEqual({
    code: 0,
    message: 'success',
    data: { success: [], errors: [{ tracking_number: before.tn, remarks: 'Cancel Fail' }] },
  });
  const after = await clientB(stack).get('order/query-status', { tracking_num: before.tn });
  expect(after.body.data.last_status).toBe('DR_DR');
  expect((await clientB(stack).get('order/query-status', { tracking_num: tn })).body.data.partner_tracking_no).toBe('');

  await stack.sandbox!.listen(port, '127.0.0.1');
  await eventually(async () => {
    const status = await clientB(stack).get('order/query-status', { tracking_num: tn });
    expect(status.body.data).toMatchObject({
      partner_name: 'LMX Express',
      partner_tracking_no: expect.stringMatching(/^LMX/),
    });
    // Failed attempts are internal records: never shown as activities.
    expect(status.body.data.activities.map((a: { status_code: string }) => a.status_code)).toEqual(['DR_DR']);
  });
  expect(
    (await clientB(stack).post('order/cancel-orders', { tracking_nums: [before.tn, tn] })).body.data.success,
  ).toEqual([before.tn, tn]);
});
