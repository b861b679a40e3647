/**
 * Property: for generated orders (valid-ish, mutated and junk) validateCreateOrder never throws,
 * a failure is one of the contract's message shapes, and an accepted order satisfies the rules
 * (checked by an independent checker written from the spec tables, not from the validator).
 */
import fc from 'fast-check';
import type { Body } from '../../test/createOrder.fixtures.ts';
import { demo, other, run } from '../../test/createOrder.fixtures.ts';
import { bodyArb, checkAccepted, FIELDS, junk, MESSAGE } from '../../test/createOrder.arbitraries.ts';

describe('validateCreateOrder: properties', () => {
  test('validation contract: never throws; failures are contract messages; accepted orders satisfy every rule (independent checker)', () => {
    let accepted = 0;
    fc.assert(
      fc.property(bodyArb, fc.constantFrom(demo, demo, other), (body, account) => {
        const result = run(body, account);
        if (!result.ok) {
          expect(result.message).toMatch(MESSAGE);
          return;
        }
        accepted++;
        checkAccepted(body, account, result);
      }),
      { numRuns: 1500 },
    );
    expect(({} as Body).polluted).toBeUndefined();
    // The success path is exercised, not only failures.
    expect(accepted).toBeGreaterThan(60);
  });

  test('validation contract: arbitrary JSON objects never make it throw', () => {
    fc.assert(
      fc.property(fc.dictionary(fc.oneof(fc.constantFrom(...FIELDS), fc.string()), junk), (body) => {
        const result = run(body);
        expect(typeof result.ok).toBe('boolean');
      }),
      { numRuns: 500 },
    );
  });
});
