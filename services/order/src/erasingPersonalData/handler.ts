/**
 * Erase-personal-data: the account's parcels only (another account's number reads as unknown).
 * For each parcel, `PersonalDataErased` is recorded (its view is erased with it), the gateway's kept
 * answers that concern it (a create-label's label, repeated with an Idempotency-Key) are deleted
 * from the shared projection store, then the parcel's key is destroyed, so that every sealed value
 * of its stream is gone for good; then the files that held the values are wiped as far as each
 * store can (`shred`). A parcel erased before is erased again: its answers are forgotten and its key
 * destroyed again (a no-op, or the end of an erasure interrupted after its event), and it is
 * answered as erased. The retention sweep erases through `erasePersonalData` too.
 */
import { parcelStreamName, Remarks } from '@parcel-logistics/contracts';
import type { CancelOrdersReply, ErasePersonalData } from '@parcel-logistics/contracts';
import { handleParcelCommand } from '@parcel-logistics/application';
import type { Ids, ParcelProjector, PersonalDataShredder } from '@parcel-logistics/application';
import { ParcelError } from '@parcel-logistics/domain';
import type { Clock } from '@parcel-logistics/domain';
import type { EventStore } from '@parcel-logistics/eventstore';
import type { IdempotencyStore } from '@parcel-logistics/projections';

export interface ErasePersonalDataDeps {
  eventStore: EventStore;
  projector: ParcelProjector;
  personalData: PersonalDataShredder;
  /** The gateway's Idempotency-Key records (the projection store's): the answers kept of an erased parcel go. */
  idempotency?: Pick<IdempotencyStore, 'forgetParcels'>;
  clock: Clock;
  ids: Ids;
  onProjectionError?: (error: unknown) => void;
}

/** Erases one parcel's personal data, by request of `clientId` or (without) by the retention policy; false: no such parcel of that account. */
export async function erasePersonalData(
  deps: ErasePersonalDataDeps,
  trackingNumber: string,
  by: { clientId: string; commandId: string } | { reason: 'retention'; commandId: string },
): Promise<boolean> {
  const clientId = 'clientId' in by ? by.clientId : undefined;
  try {
    await handleParcelCommand(
      deps,
      trackingNumber,
      () => ({
        type: 'ErasePersonalData',
        data: {
          ...(clientId === undefined ? {} : { clientId }),
          reason: clientId === undefined ? 'retention' : 'request',
          now: deps.clock.now(),
        },
      }),
      { commandId: by.commandId },
    );
  } catch (error) {
    if (error instanceof ParcelError && error.code === 'ParcelNotFound') return false;
    throw error;
  }
  await deps.idempotency?.forgetParcels([trackingNumber]);
  await deps.personalData.destroyKey(parcelStreamName(trackingNumber));
  return true;
}

export async function erasePersonalDataOf(
  deps: ErasePersonalDataDeps,
  command: ErasePersonalData['payload'],
  commandId: string,
): Promise<CancelOrdersReply> {
  const { clientId, trackingNumbers } = command;
  const erased = new Map<string, boolean>();
  for (const trackingNumber of new Set(trackingNumbers))
    erased.set(trackingNumber, await erasePersonalData(deps, trackingNumber, { clientId, commandId }));
  if ([...erased.values()].some(Boolean)) await deps.personalData.shred();
  return {
    success: trackingNumbers.filter((tn) => erased.get(tn)),
    errors: trackingNumbers
      .filter((tn) => !erased.get(tn))
      .map((tn) => ({ tracking_number: tn, remarks: Remarks.noRecord })),
  };
}
