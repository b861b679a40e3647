/**
 * Create-manifest: the account's parcels of a carrier that the carrier accepted and that are on no
 * manifest yet go on one. Recorded in this order, so nothing is half-written:
 *
 * 1. the manifest's stream with its list (`ManifestRecorded`);
 * 2. each parcel marked (`ParcelManifested`), each its own command: the parcel decider refuses a
 *    parcel on another manifest (two concurrent create-manifests never share one), a cancelled one,
 *    one not yet accepted by the carrier; a mark already there is no new event;
 * 3. `ManifestCompleted` with the parcels marked; then the read model.
 *
 * A crash after 1 is finished by the manifest worker (worker.ts) from the store's log, with the
 * same steps, which may run twice to the same result.
 */
import { manifestStreamName } from '@parcel-logistics/contracts';
import type { CreateManifest, CreateManifestReply, StoredManifest } from '@parcel-logistics/contracts';
import { MANIFEST_MAX_PARCELS } from '@parcel-logistics/contracts';
import { handleCommand, handleParcelCommand, readStreamState } from '@parcel-logistics/application';
import type { ParcelCommandDeps } from '@parcel-logistics/application';
import { formatSgt, manifestDecider, manifestPieces, ParcelError } from '@parcel-logistics/domain';
import type { Clock, ManifestLine, ManifestState } from '@parcel-logistics/domain';
import { fromStoredParcelView } from '@parcel-logistics/contracts';
import type { ManifestStore, ParcelViewStore } from '@parcel-logistics/projections';
import type { ReferenceData } from '@parcel-logistics/reference-data';

export interface ManifestDeps extends ParcelCommandDeps {
  views: Pick<ParcelViewStore, 'openForManifest'>;
  manifests: Pick<ManifestStore, 'put'>;
  ref: ReferenceData;
  clock: Clock;
  /** Carriers that register parcels (and so give them a number): the carriers a manifest is made for. */
  carriers: ReadonlyMap<string, unknown>;
}

export async function createManifest(
  deps: ManifestDeps,
  command: CreateManifest['payload'],
  commandId: string,
): Promise<CreateManifestReply> {
  const { clientId, carrier, manifestId } = command;
  if (!deps.carriers.has(carrier)) return { ok: false, error: 'UnsupportedCarrier' };
  const streamName = manifestStreamName(manifestId);
  // A redelivered command completes the manifest it recorded, whatever the views say now.
  const known = await readStreamState(deps.eventStore, streamName, manifestDecider);
  if (known.state.status === 'none') {
    const open = await deps.views.openForManifest(clientId, carrier, MANIFEST_MAX_PARCELS);
    if (open.length === 0) return { ok: false, error: 'NothingToClose' };
    const lines = open.map(fromStoredParcelView).map((view): ManifestLine => ({
      trackingNumber: view.trackingNumber,
      customTrackingNum: view.customTrackingNum,
      serviceType: view.serviceType,
      destination: view.order.recipient.country,
      weight: view.order.weight,
      pieces: manifestPieces(view.order.lines),
      partnerTrackingNo: view.partnerTrackingNo,
    }));
    await handleCommand(
      deps.eventStore,
      streamName,
      manifestDecider,
      { type: 'RecordManifest', data: { manifestId, clientId, carrier, lines, now: deps.clock.now() } },
      // Fresh event ids: two deliveries of the command that race are told apart by the stream's
      // revision (the loser decides again and records nothing), not by an id both would claim.
      { metadata: { commandId, clientId }, eventId: deps.ids.eventId },
    );
  }
  const manifest = await finishManifest(deps, manifestId, { commandId });
  if (!manifest || manifest.clientId !== clientId) return { ok: false, error: 'NothingToClose' };
  return { ok: true, manifest };
}

/**
 * Marks the recorded manifest's parcels, completes it and stores it for reading; a manifest
 * completed before is only stored again (a no-op). Undefined: no such manifest, or none of its
 * parcels could be marked (taken by a concurrent manifest, or cancelled meanwhile), so it is empty
 * and not listed.
 */
export async function finishManifest(
  deps: ManifestDeps,
  manifestId: string,
  metadata: Record<string, unknown>,
): Promise<StoredManifest | undefined> {
  const streamName = manifestStreamName(manifestId);
  let { state } = await readStreamState(deps.eventStore, streamName, manifestDecider);
  if (state.status === 'none') return undefined;
  if (state.status === 'recorded') {
    const { clientId, carrier } = state;
    const marked: string[] = [];
    for (const line of state.lines) {
      try {
        await handleParcelCommand(
          deps,
          line.trackingNumber,
          () => ({ type: 'AddToManifest', data: { clientId, carrier, manifestId, now: deps.clock.now() } }),
          { ...metadata, clientId, manifestId },
        );
        marked.push(line.trackingNumber);
      } catch (error) {
        // The decider refused it: left out of this manifest. Anything else: tried again by the worker.
        if (!(error instanceof ParcelError)) throw error;
      }
    }
    const completed = await handleCommand(
      deps.eventStore,
      streamName,
      manifestDecider,
      { type: 'CompleteManifest', data: { trackingNumbers: marked, now: deps.clock.now() } },
      // The command's handler and the manifest worker finish the same manifest at once (the
      // worker reads the log as it is written): the stream's revision decides which completion
      // stands, and the other, deciding again on the completed stream, records nothing.
      { metadata: { ...metadata, clientId }, eventId: deps.ids.eventId },
    );
    state = completed.newState;
  }
  const manifest = storedManifestOf(state, deps.ref);
  if (manifest) await deps.manifests.put(manifest);
  return manifest;
}

/** The read model's manifest of a completed stream; undefined while it is not, or when it holds no parcel. */
export function storedManifestOf(state: ManifestState, ref: ReferenceData): StoredManifest | undefined {
  if (state.status !== 'completed' || state.trackingNumbers.length === 0) return undefined;
  const on = new Set(state.trackingNumbers);
  return {
    manifestId: state.manifestId,
    clientId: state.clientId,
    carrier: state.carrier,
    carrierName: ref.carriers.get(state.carrier)?.name ?? state.carrier,
    createdAt: formatSgt(state.recordedAt),
    createdMs: state.recordedAt.getTime(),
    parcels: state.lines.filter((l) => on.has(l.trackingNumber)),
  };
}
