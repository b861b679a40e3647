/** A carrier's tracking event: mapped to our status catalogue at this edge, the raw code kept. */
import type { RecordCarrierEvent, RecordCarrierEventReply } from '@parcel-logistics/contracts';
import { handleParcelCommand } from '@parcel-logistics/application';
import type { Ids, ParcelProjector } from '@parcel-logistics/application';
import { mapCarrierCode } from '@parcel-logistics/carriers';
import type { Clock } from '@parcel-logistics/domain';
import type { EventStore } from '@parcel-logistics/eventstore';
import type { ParcelViewStore } from '@parcel-logistics/projections';
import type { ReferenceData } from '@parcel-logistics/reference-data';

export interface RecordCarrierEventDeps {
  eventStore: EventStore;
  projector: ParcelProjector;
  views: ParcelViewStore;
  ref: ReferenceData;
  clock: Clock;
  ids: Ids;
  onProjectionError?: (error: unknown) => void;
}

export async function recordCarrierEvent(
  deps: RecordCarrierEventDeps,
  command: RecordCarrierEvent['payload'],
  commandId: string,
): Promise<RecordCarrierEventReply> {
  const carrier = deps.ref.carriers.get(command.carrier);
  const view = carrier ? await deps.views.getByPartnerTrackingNo(carrier.code, command.partnerTrackingNo) : null;
  if (!carrier || !view) return { ok: false, error: 'UnknownParcel' };
  const { carrierCode, location, remarks, receiveBy, pod } = command;
  const { events } = await handleParcelCommand(
    deps,
    view.trackingNumber,
    () => ({
      type: 'RecordCarrierEvent',
      data: {
        carrierCode,
        statusCode: mapCarrierCode(carrier, carrierCode),
        eventTime: new Date(command.eventTime),
        location,
        remarks,
        receiveBy,
        pod,
        now: deps.clock.now(),
      },
    }),
    { commandId, carrier: carrier.code },
  );
  return { ok: true, recorded: events.length > 0 };
}
