/**
 * No log line holds a personal value, at LOG_LEVEL=trace (docs/personal-data.md): the embedded
 * wiring logs every line of an order's life (created, registered, delivered with a signer, labels,
 * erased, a rejected order with marker values) into memory, which is then searched for the markers.
 */
import { eventually, pushEvent, registeredParcel } from '../support/carriers.ts';
import { clientB } from '../support/client.ts';
import { capturedLog, startTestStack } from '../support/stack.ts';
import type { TestStack } from '../support/stack.ts';
import { markedDelivery, markedOrder, markers } from './markers.ts';

const { lines, log } = capturedLog();
let stack: TestStack;

beforeAll(async () => {
  stack = await startTestStack({ LOG_LEVEL: 'trace' }, undefined, log);
});
afterAll(() => stack.destroy());

test('an order created, delivered, labelled, refused and erased leaves no personal value in any log line at trace', async () => {
  const target = stack;
  const m = markers();
  const { tn, partner } = await registeredParcel(target, markedOrder(m));
  expect((await pushEvent(target, markedDelivery(m, partner))).status).toBe(200);
  await eventually(async () =>
    expect((await clientB(target).get('order/query-status', { tracking_num: tn })).body.data.last_status).toBe('DL_DL'),
  );
  for (const suffix of ['', '-html', '-zpl'])
    await clientB(target).get(`order-shipping-label/get-shipping-label${suffix}`, { tracking_num: tn });
  // Refused for its country, with every personal field marked.
  expect(
    (await clientB(target).post('order/create-order', markedOrder(m, { recipient_country: 'ZZ' }))).body.code,
  ).toBe(1);
  expect((await clientB(target).post('order/erase-personal-data', { tracking_nums: [tn] })).body.code).toBe(0);
  await stack.caughtUp();

  // The logger did write: the start, the requests, the carrier's registration.
  expect(lines.length).toBeGreaterThan(5);
  const found = lines.flatMap((line) => Object.values(m).filter((value) => line.includes(value)));
  expect(found).toEqual([]);
});
