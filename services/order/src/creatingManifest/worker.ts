/**
 * Finishes every manifest from the store's log: a catch-up subscription that, for each manifest
 * recorded, marks its parcels and completes it (handler.ts's `finishManifest`), and stores each
 * completed one for reading. What a create-manifest request did before a crash is finished here;
 * what it finished is found finished (no new event, the same read model).
 */
import { deserializeEvent, MANIFEST_STREAM_PREFIX } from '@parcel-logistics/contracts';
import type { RecordedEvent, Subscription } from '@parcel-logistics/eventstore';
import type { ManifestStore } from '@parcel-logistics/projections';
import { finishManifest } from './handler.ts';
import type { ManifestDeps } from './handler.ts';

export const MANIFEST_SUBSCRIPTION = 'order-manifests';

export function startManifestWorker(
  deps: ManifestDeps & { manifests: Pick<ManifestStore, 'put' | 'checkpoints'>; pollIntervalMs?: number },
): Subscription {
  async function handle(recorded: RecordedEvent): Promise<void> {
    const event = deserializeEvent(recorded);
    if (event.type !== 'ManifestRecorded' && event.type !== 'ManifestCompleted') return;
    await finishManifest(deps, event.data.manifestId, { commandId: `${event.data.manifestId}:worker` });
  }
  return deps.eventStore.subscribeToAll({
    subscriptionId: MANIFEST_SUBSCRIPTION,
    // Kept with the manifests it stores: a crash that loses their last writes moves it back over their events.
    checkpoints: deps.manifests.checkpoints,
    streamPrefixes: [MANIFEST_STREAM_PREFIX],
    handler: handle,
    ...(deps.pollIntervalMs ? { pollIntervalMs: deps.pollIntervalMs } : {}),
  });
}
