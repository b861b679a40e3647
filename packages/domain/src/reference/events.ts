/** The event of a reference's stream, beside its decider (claim.ts). */

/** The claim of a client reference; its stream exists once per (client, reference). */
export interface ReferenceClaimed {
  type: 'ReferenceClaimed';
  data: { clientId: string; customTrackingNum: string; trackingNumber: string; claimedAt: Date };
}
