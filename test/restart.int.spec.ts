/** decisions.md "a restart with the same directory keeps every parcel, reference and token". */
import { clientA, clientB, tokenFor } from './support/client.ts';
import { orderBody } from './support/orders.ts';
import { startTestStack } from './support/stack.ts';
import type { TestStack } from './support/stack.ts';

test('a restart of the process keeps every parcel, reference and token', async () => {
  let stack: TestStack = await startTestStack();
  try {
    const token = await tokenFor(stack);
    const created: { ref: string; tn: string }[] = [];
    for (let i = 0; i < 25; i++) {
      const body = orderBody();
      const r = await clientB(stack).post('order/create-order', body);
      created.push({ ref: body.custom_tracking_num as string, tn: r.body.data.wmg_tracking_num });
    }

    stack = await stack.restart();

    const lookup = await clientA(stack, token).post('status/lookup', { TrackingNumber: created.map((c) => c.tn) });
    expect(lookup.body.Code).toBe(0);
    expect(lookup.body.Data.Success.map((s: { TrackingNumber: string }) => s.TrackingNumber)).toEqual(
      created.map((c) => c.tn),
    );
    for (const { ref, tn } of created.slice(0, 5)) {
      expect((await clientB(stack).get('order/get-barcode', { custom_tracking_num: ref })).body.data.barcode).toBe(tn);
      const again = await clientB(stack).post('order/create-order', orderBody({ custom_tracking_num: ref }));
      expect(again.body.message).toBe(`custom_tracking_num (${ref}) already exist`);
    }
    // A token issued after the restart still supersedes the one issued before it.
    await tokenFor(stack);
    expect((await clientA(stack, token).post('status/lookup', { TrackingNumber: ['x'] })).body.Code).toBe(1003);
  } finally {
    await stack.destroy();
  }
});
