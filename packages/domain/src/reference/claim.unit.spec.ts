import type { ReferenceClaimed } from './events.ts';
import { decideClaim, evolveReference, initialReferenceState, ReferenceExistsError } from './claim.ts';
import type { ClaimReference } from './claim.ts';

const now = new Date('2026-11-22T06:00:00Z');
const claim: ClaimReference = {
  type: 'ClaimReference',
  data: { clientId: 'demo', customTrackingNum: 'REF-1', trackingNumber: 'PX1', now },
};
const claimed: ReferenceClaimed = {
  type: 'ReferenceClaimed',
  data: { clientId: 'demo', customTrackingNum: 'REF-1', trackingNumber: 'PX1', claimedAt: now },
};

describe('reference claim decider', () => {
  test('an unclaimed reference -> ReferenceClaimed for the parcel', () => {
    expect(decideClaim(claim, initialReferenceState())).toEqual([claimed]);
  });

  test('"custom_tracking_num (XXX) already exist": a claimed reference is refused', () => {
    const state = evolveReference(initialReferenceState(), claimed);
    expect(state).toEqual({ status: 'claimed', trackingNumber: 'PX1', claimedAt: now });
    expect(() => decideClaim({ ...claim, data: { ...claim.data, trackingNumber: 'PX2' } }, state)).toThrow(
      ReferenceExistsError,
    );
  });
});
