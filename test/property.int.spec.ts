/**
 * Bad input: a fast-check property over generated orders (valid-ish, mutated, junk,
 * `$` keys, `__proto__`) sent over HTTP to the embedded stack: never a 5xx, always the envelope;
 * the HTTP answer agrees with the validator, and every accepted order satisfies every rule
 * (the independent checker of the validator's own property test) and can be queried at once.
 */
import fc from 'fast-check';
import { validateCreateOrder } from '@parcel-logistics/contracts';
import { bodyArb, checkAccepted, MESSAGE } from '@parcel-logistics/contracts/testing';
import { loadAccounts, loadReferenceData } from '@parcel-logistics/reference-data';
import { clientB, DEMO, OTHER } from './support/client.ts';
import { startTestStack } from './support/stack.ts';
import type { TestStack } from './support/stack.ts';

let stack: TestStack;
beforeAll(async () => {
  stack = await startTestStack();
});
afterAll(() => stack.destroy());

const ref = loadReferenceData();
const accounts = new Map(loadAccounts().map((a) => [a.apiName, a]));

test('create-order over HTTP: never a 5xx; accepted exactly when valid; accepted orders break no rule', async () => {
  const used = new Set<string>();
  let accepted = 0;
  await fc.assert(
    fc.asyncProperty(bodyArb, fc.constantFrom(DEMO, DEMO, OTHER), async (body, credentials) => {
      const r = await clientB(stack, credentials).post('order/create-order', JSON.stringify(body));
      expect(r.status).toBe(200);
      expect(Object.keys(r.body)).toEqual(['code', 'message', 'data']);
      const account = accounts.get(credentials.apiName)!;
      const expected = validateCreateOrder(JSON.parse(JSON.stringify(body)), { account, ref });
      if (!expected.ok) {
        expect(r.body).toEqual({ code: 1, message: expected.message, data: [] });
        expect(r.body.message).toMatch(MESSAGE);
        return;
      }
      const key = `${account.clientId}/${expected.order.custom_tracking_num}`;
      if (used.has(key)) {
        expect(r.body).toEqual({
          code: 1,
          message: `custom_tracking_num (${expected.order.custom_tracking_num}) already exist`,
          data: [],
        });
        return;
      }
      used.add(key);
      expect(r.body.code).toBe(0);
      accepted++;
      checkAccepted(JSON.parse(JSON.stringify(body)), account, expected);
      const status = await clientB(stack, credentials).get('order/query-status', {
        tracking_num: r.body.data.wmg_tracking_num,
      });
      expect(status.body.data.last_status).toBe('DR_DR');
    }),
    { numRuns: 300 },
  );
  expect(accepted).toBeGreaterThan(10);
}, 120_000);
