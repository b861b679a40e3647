/**
 * B6 cancel-orders: only the account's parcels of a cancellable carrier (LMX and its pickup
 * variant). The carrier cancels first, in one batch per carrier; a parcel is cancelled here only
 * once its carrier said so, so an outage or a refused batch changes nothing.
 */
import { Remarks } from '@parcel-logistics/contracts';
import type { CancelOrders, CancelOrdersReply } from '@parcel-logistics/contracts';
import { handleParcelCommand, readParcel } from '@parcel-logistics/application';
import type { Ids, ParcelProjector } from '@parcel-logistics/application';
import type { CarrierClient } from '@parcel-logistics/carriers';
import { cancellation, ParcelError } from '@parcel-logistics/domain';
import type { Clock, ParcelErrorCode } from '@parcel-logistics/domain';
import type { EventStore } from '@parcel-logistics/eventstore';
import type { ReferenceData } from '@parcel-logistics/reference-data';

export interface CancelOrdersDeps {
  eventStore: EventStore;
  projector: ParcelProjector;
  carriers: ReadonlyMap<string, CarrierClient>;
  ref: ReferenceData;
  clock: Clock;
  ids: Ids;
  onProjectionError?: (error: unknown) => void;
}

type Outcome = { cancelled: true } | { cancelled: false; remarks: string };

/** The decider's refusals as the B6 reply words them: another account's parcel reads as a missing one. */
const refusalRemarks: Partial<Record<ParcelErrorCode, string>> = {
  ParcelNotFound: Remarks.noRecord,
  CarrierCannotCancel: Remarks.noRecord,
  ParcelAlreadyCancelled: Remarks.canceled,
  NotRegisteredWithCarrier: Remarks.notFoundInPartner,
  ParcelManifested: Remarks.onManifest,
};
const refused = (code: ParcelErrorCode): Outcome => {
  const remarks = refusalRemarks[code];
  if (remarks === undefined) throw new ParcelError(code);
  return { cancelled: false, remarks };
};
interface Candidate {
  trackingNumber: string;
  partnerTrackingNo: string;
}

export async function cancelOrders(
  deps: CancelOrdersDeps,
  command: CancelOrders['payload'],
  commandId: string,
): Promise<CancelOrdersReply> {
  const { clientId, trackingNumbers } = command;
  const unique = [...new Set(trackingNumbers)];
  const outcomes = new Map<string, Outcome>();
  const byCarrier = new Map<string, Candidate[]>();
  // Carriers that take cancellations and that this service reaches.
  const cancellableCarriers = [...deps.carriers.keys()].filter((code) => deps.ref.carriers.get(code)?.cancellable);

  // Each parcel's own stream, decided on: what its carrier may be asked to cancel.
  const parcels = await Promise.all(unique.map((trackingNumber) => readParcel(deps.eventStore, trackingNumber)));
  for (const [i, trackingNumber] of unique.entries()) {
    const asked = cancellation(parcels[i]!.state, { clientId, cancellableCarriers });
    if (asked.refusal !== undefined) outcomes.set(trackingNumber, refused(asked.refusal));
    else
      byCarrier.set(asked.carrier, [
        ...(byCarrier.get(asked.carrier) ?? []),
        { trackingNumber, partnerTrackingNo: asked.partnerTrackingNo },
      ]);
  }

  for (const [carrier, candidates] of byCarrier) {
    const result = await deps.carriers.get(carrier)!.cancel(candidates.map((c) => c.partnerTrackingNo));
    for (const { trackingNumber, partnerTrackingNo } of candidates) {
      const answer = result.ok ? result.outcomes.get(partnerTrackingNo) : undefined;
      if (!answer) outcomes.set(trackingNumber, { cancelled: false, remarks: Remarks.cancelFail });
      else if (!answer.cancelled) outcomes.set(trackingNumber, { cancelled: false, remarks: answer.message });
      else outcomes.set(trackingNumber, await recordCancellation(deps, trackingNumber, clientId, commandId));
    }
  }

  // Every submitted number is answered in submission order; a repeat of a number cancelled
  // earlier in the same request reads as already cancelled.
  const reply: CancelOrdersReply = { success: [], errors: [] };
  const answered = new Set<string>();
  for (const trackingNumber of trackingNumbers) {
    const outcome = outcomes.get(trackingNumber)!;
    if (outcome.cancelled && !answered.has(trackingNumber)) reply.success.push(trackingNumber);
    else
      reply.errors.push({
        tracking_number: trackingNumber,
        remarks: outcome.cancelled ? Remarks.canceled : outcome.remarks,
      });
    answered.add(trackingNumber);
  }
  return reply;
}

async function recordCancellation(
  deps: CancelOrdersDeps,
  trackingNumber: string,
  clientId: string,
  commandId: string,
): Promise<Outcome> {
  try {
    await handleParcelCommand(
      deps,
      trackingNumber,
      () => ({ type: 'CancelParcel', data: { clientId, now: deps.clock.now() } }),
      { commandId, clientId },
    );
    return { cancelled: true };
  } catch (error) {
    // A concurrent cancel got there first, or the parcel is not the account's: the decider says which.
    if (error instanceof ParcelError) return refused(error.code);
    throw error;
  }
}
