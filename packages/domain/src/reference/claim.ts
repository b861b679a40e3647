/**
 * The claim of a client reference: one parcel per (account, reference). Its stream is appended with
 * a "no stream" expectation together with the parcel's first event, so the store enforces what this
 * decider says of a state read before.
 */
import type { Decider } from '../decider.ts';
import type { ReferenceClaimed } from './events.ts';

export type ReferenceState = { status: 'unclaimed' } | { status: 'claimed'; trackingNumber: string; claimedAt: Date };

export interface ClaimReference {
  type: 'ClaimReference';
  data: { clientId: string; customTrackingNum: string; trackingNumber: string; now: Date };
}

export class ReferenceExistsError extends Error {
  readonly customTrackingNum: string;
  constructor(customTrackingNum: string) {
    super(`reference ${customTrackingNum} already claimed`);
    this.customTrackingNum = customTrackingNum;
    this.name = 'ReferenceExistsError';
  }
}

export const initialReferenceState = (): ReferenceState => ({ status: 'unclaimed' });

export function decideClaim(command: ClaimReference, state: ReferenceState): ReferenceClaimed[] {
  const { clientId, customTrackingNum, trackingNumber, now } = command.data;
  if (state.status === 'claimed') throw new ReferenceExistsError(customTrackingNum);
  return [{ type: 'ReferenceClaimed', data: { clientId, customTrackingNum, trackingNumber, claimedAt: now } }];
}

export const evolveReference = (_state: ReferenceState, event: ReferenceClaimed): ReferenceState => ({
  status: 'claimed',
  trackingNumber: event.data.trackingNumber,
  claimedAt: event.data.claimedAt,
});

/** The reference stream's decider, as the command handler runs it. */
export const referenceDecider: Decider<ReferenceState, ClaimReference, ReferenceClaimed> = {
  decide: decideClaim,
  evolve: evolveReference,
  initialState: initialReferenceState,
};
