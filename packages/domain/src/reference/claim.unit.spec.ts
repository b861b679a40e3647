import type { ReferenceClaimed } from './events.ts';
import { referenceDecider, ReferenceExistsError } from './claim.ts';
import type { ClaimReference } from './claim.ts';
import { givenWhenThen } from '../../test/givenWhenThen.ts';

const now = new Date('2026-11-22T06:00:00Z');
const claim: ClaimReference = {
  type: 'ClaimReference',
  data: { clientId: 'demo', customTrackingNum: 'REF-1', trackingNumber: 'PX1', now },
};
const claimed: ReferenceClaimed = {
  type: 'ReferenceClaimed',
  data: { clientId: 'demo', customTrackingNum: 'REF-1', trackingNumber: 'PX1', claimedAt: now },
};
const given = givenWhenThen(referenceDecider, ReferenceExistsError);

describe('reference claim decider', () => {
  test('an unclaimed reference -> ReferenceClaimed for the parcel', () => {
    given().when(claim).then([claimed]);
  });

  test('"custom_tracking_num (XXX) already exist": a claimed reference is refused', () => {
    expect(given(claimed).state()).toEqual({ status: 'claimed', trackingNumber: 'PX1', claimedAt: now });
    given(claimed)
      .when({ ...claim, data: { ...claim.data, trackingNumber: 'PX2' } })
      .thenThrows();
  });
});
