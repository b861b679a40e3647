/** A2: the LB_GN event of a label that was rendered. */
import type { RecordLabel, RecordLabelReply } from '@parcel/contracts';
import { handleParcelCommand } from '@parcel/application';
import type { Ids, ParcelProjector } from '@parcel/application';
import { ParcelError } from '@parcel/domain';
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
  const { clientId, trackingNumber, labelType, direction } = command;
  const selfLabelServiceTypes = [...deps.ref.serviceTypes.values()].filter((t) => t.selfLabel).map((t) => t.code);
  try {
    await handleParcelCommand(
      deps,
      trackingNumber,
      (state) => {
        // Another account's parcel is answered exactly as a missing one.
        if (state.status !== 'empty' && state.clientId !== clientId) throw new ParcelError('ParcelNotFound');
        return { type: 'GenerateLabel', data: { labelType, direction, selfLabelServiceTypes, now: deps.clock.now() } };
      },
      { commandId, clientId },
    );
    return { ok: true };
  } catch (error) {
    if (error instanceof ParcelError && (error.code === 'ParcelNotFound' || error.code === 'SelfLabelNotAllowed')) return { ok: false, error: error.code };
    throw error;
  }
}
