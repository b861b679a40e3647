/**
 * A2 create-label's rules, in one place: the gateway asks them of the parcel view for its early
 * answer, the decider of the parcel's stream before it records LB_GN.
 */

/** What the rules read of a parcel, from its view or its state alike. */
export interface LabelledParcel {
  clientId: string;
  serviceType: string;
  /** sender country */
  origin: string;
  /** recipient country */
  destination: string;
}

export interface LabelRequest {
  clientId: string;
  /** Origin and Destination as sent: matched exactly. */
  origin: string;
  destination: string;
  selfLabelServiceTypes: readonly string[];
}

/** Tenant isolation: another account's parcel is answered exactly as a missing one. */
export const ownedBy = (parcel: { clientId: string } | undefined, clientId: string): boolean =>
  parcel !== undefined && parcel.clientId === clientId;

/**
 * Another account's parcel, or one sent between other countries, is answered exactly as a missing
 * one; a self-label service's parcel gets no label of ours.
 */
export function labelRefusal(
  parcel: LabelledParcel | undefined,
  request: LabelRequest,
): 'ParcelNotFound' | 'SelfLabelNotAllowed' | undefined {
  if (!parcel || !ownedBy(parcel, request.clientId)) return 'ParcelNotFound';
  if (parcel.origin !== request.origin || parcel.destination !== request.destination) return 'ParcelNotFound';
  if (request.selfLabelServiceTypes.includes(parcel.serviceType)) return 'SelfLabelNotAllowed';
  return undefined;
}

/** The service types whose parcels carry the carrier's own label (decisions.md: SLF). */
export const selfLabelServiceTypes = (ref: {
  serviceTypes: ReadonlyMap<string, { code: string; selfLabel: boolean }>;
}): string[] => [...ref.serviceTypes.values()].filter((t) => t.selfLabel).map((t) => t.code);
