/** A2: the LB_GN event of a label that was rendered. */
import type { RecordLabel, RecordLabelReply } from '@parcel/contracts';
import { handleParcelCommand } from '@parcel/application';
import type { Ids, ParcelProjector } from '@parcel/application';
import { ParcelError, selfLabelServiceTypes } from '@parcel/domain';
import type { Clock } from '@parcel/domain';
import type { EventStore } from '@parcel/eventstore';
import type { ReferenceData } from '@parcel/reference-data';

export interface RecordLabelDeps {
  eventStore: EventStore;
  projector: ParcelProjector;
  ref: ReferenceData;
  clock: Clock;
  ids: Ids;
  onProjectionError?: (error: unknown) => void;
}

export async function recordLabel(deps: RecordLabelDeps, command: RecordLabel['payload'], commandId: string): Promise<RecordLabelReply> {
  const { trackingNumber, ...request } = command;
  const data = { ...request, selfLabelServiceTypes: selfLabelServiceTypes(deps.ref), now: deps.clock.now() };
  try {
    await handleParcelCommand(deps, trackingNumber, () => ({ type: 'GenerateLabel', data }), { commandId, clientId: command.clientId });
    return { ok: true };
  } catch (error) {
    if (error instanceof ParcelError && (error.code === 'ParcelNotFound' || error.code === 'SelfLabelNotAllowed')) return { ok: false, error: error.code };
    throw error;
  }
}
