import type { ParcelProjector } from '@parcel/application';
import type { Bus } from '@parcel/bus';
import type { Clock } from '@parcel/domain';
import type { EventStore, Subscription } from '@parcel/eventstore';

export interface TrackingServiceDeps {
  eventStore: EventStore;
  projector: ParcelProjector;
  bus: Bus;
  clock: Clock;
  /** Subscription poll interval for commits made by other processes. */
  pollIntervalMs?: number;
}

export const PARCEL_VIEW_SUBSCRIPTION = 'parcel-view';

/**
 * The tracking service: keeps the status projection up to date from the store's global log
 * (with a stored checkpoint, so nothing committed is ever left out of the view).
 */
export function createTrackingService(deps: TrackingServiceDeps) {
  let projection: Subscription | undefined;
  return {
    async start() {
      projection = deps.eventStore.subscribeToAll({
        subscriptionId: PARCEL_VIEW_SUBSCRIPTION,
        handler: deps.projector.handleRecorded,
        ...(deps.pollIntervalMs ? { pollIntervalMs: deps.pollIntervalMs } : {}),
      });
    },
    /** Resolves once every event committed so far is in the view. */
    async caughtUp() {
      await projection?.caughtUp();
    },
    async stop() {
      await projection?.stop();
    },
  };
}
