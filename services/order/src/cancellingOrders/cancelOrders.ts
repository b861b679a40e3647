/**
 * B6 cancel-orders: only the account's parcels of a cancellable carrier (LMX and its pickup
 * variant). The carrier cancels first, in one batch per carrier; a parcel is cancelled here only
 * once its carrier said so, so an outage or a refused batch changes nothing.
 */
import { Remarks } from '@parcel-logistics/contracts';
import type { CancelOrders, CancelOrdersReply } from '@parcel-logistics/contracts';
import { handleParcelCommand } from '@parcel-logistics/application';
import type { Ids, ParcelProjector } from '@parcel-logistics/application';
import type { CarrierClient } from '@parcel-logistics/carriers';
import { ParcelError } from '@parcel-logistics/domain';
import type { Clock } from '@parcel-logistics/domain';
import type { EventStore } from '@parcel-logistics/eventstore';
import type { ParcelViewStore } from '@parcel-logistics/projections';
import type { ReferenceData } from '@parcel-logistics/reference-data';

export interface CancelOrdersDeps {
  eventStore: EventStore;
  projector: ParcelProjector;
  views: ParcelViewStore;
  carriers: ReadonlyMap<string, CarrierClient>;
  ref: ReferenceData;
  clock: Clock;
  ids: Ids;
  onProjectionError?: (error: unknown) => void;
}

type Outcome = { cancelled: true } | { cancelled: false; remarks: string };
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
  const views = await deps.views.getManyForClient(clientId, unique);
  const outcomes = new Map<string, Outcome>();
  const byCarrier = new Map<string, Candidate[]>();

  for (const trackingNumber of unique) {
    const view = views.get(trackingNumber);
    const client =
      view && deps.ref.carriers.get(view.carrier)?.cancellable ? deps.carriers.get(view.carrier) : undefined;
    if (!view || !client) outcomes.set(trackingNumber, { cancelled: false, remarks: Remarks.noRecord });
    else if (view.status === 'cancelled') outcomes.set(trackingNumber, { cancelled: false, remarks: Remarks.canceled });
    else if (!view.partnerTrackingNo)
      outcomes.set(trackingNumber, { cancelled: false, remarks: Remarks.notFoundInPartner });
    else
      byCarrier.set(view.carrier, [
        ...(byCarrier.get(view.carrier) ?? []),
        { trackingNumber, partnerTrackingNo: view.partnerTrackingNo },
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
    // A concurrent cancel got there first.
    if (error instanceof ParcelError && error.code === 'ParcelAlreadyCancelled')
      return { cancelled: false, remarks: Remarks.canceled };
    // The stream is the account's own only if the view said so truly: answered as a missing one otherwise.
    if (error instanceof ParcelError && error.code === 'ParcelNotFound')
      return { cancelled: false, remarks: Remarks.noRecord };
    throw error;
  }
}
