import { Topics } from '@parcel-logistics/contracts';
import type { TrackingCommands } from '@parcel-logistics/contracts';
import type { ParcelProjector } from '@parcel-logistics/application';
import { serveCommands } from '@parcel-logistics/bus';
import type { Bus, Unsubscribe } from '@parcel-logistics/bus';
import type { Subscription } from '@parcel-logistics/eventstore';
import { recordCarrierEvent } from './recordingCarrierEvent/handler.ts';
import type { RecordCarrierEventDeps } from './recordingCarrierEvent/handler.ts';
import { createLabel } from './creatingLabel/handler.ts';
import type { CreateLabelDeps } from './creatingLabel/handler.ts';
import { createLabels } from './creatingLabels/handler.ts';
import { startEventPublisher } from './publishingEvents/worker.ts';

export type TrackingServiceDeps = RecordCarrierEventDeps &
  Pick<CreateLabelDeps, 'renderTimeoutMs'> & {
    projector: ParcelProjector;
    bus: Bus;
    /** Subscription poll interval for commits made by other processes. */
    pollIntervalMs?: number;
    /**
     * Publish the downstream topics (`parcel.events.v2`, `parcel.personal.v1`): on by default. The
     * embedded wiring turns it off: nothing outside its process can subscribe to its in-process bus,
     * so every message would go nowhere.
     */
    publishDownstream?: boolean;
    /** Publish `parcel.events.v1` too, personal values in clear (PARCEL_DOWNSTREAM_V1=on). */
    downstreamV1?: boolean;
  };

export const PARCEL_VIEW_SUBSCRIPTION = 'parcel-view';

/**
 * The tracking service: creates labels (A2, and many in one document) and records carrier events on parcel streams, keeps the status
 * projection up to date from the store's global log and, unless `publishDownstream` is off, publishes
 * every parcel event to the downstream topics (both with stored checkpoints, so nothing committed is
 * ever left out).
 */
export function createTrackingService(deps: TrackingServiceDeps) {
  let projection: Subscription | undefined;
  let publisher: Subscription | undefined;
  let unsubscribe: Unsubscribe | undefined;

  return {
    async start() {
      projection = deps.eventStore.subscribeToAll({
        subscriptionId: PARCEL_VIEW_SUBSCRIPTION,
        // Kept with the views: a crash that loses their last writes moves it back over their events.
        checkpoints: deps.views.checkpoints,
        handleBatch: deps.projector.handleBatch,
        ...(deps.pollIntervalMs ? { pollIntervalMs: deps.pollIntervalMs } : {}),
      });
      if (deps.publishDownstream ?? true) publisher = startEventPublisher(deps);
      unsubscribe = await serveCommands<TrackingCommands>(deps.bus, Topics.trackingCommands, 'tracking service', {
        CreateLabel: (payload, { commandId }) => createLabel(deps, payload, commandId),
        CreateLabels: (payload, { commandId }) => createLabels(deps, payload, commandId),
        RecordCarrierEvent: (payload, { commandId }) => recordCarrierEvent(deps, payload, commandId),
      });
    },
    /** Resolves once every event committed so far is in the view. */
    async caughtUp() {
      await Promise.all([projection?.caughtUp(), publisher?.caughtUp()]);
    },
    async stop() {
      await unsubscribe?.();
      await Promise.all([projection?.stop(), publisher?.stop()]);
    },
  };
}
