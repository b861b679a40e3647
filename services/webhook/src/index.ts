/**
 * The webhook service: a checkpointed subscription on the store's log queues each
 * client-visible parcel event for its account's subscribed endpoints, and the dispatcher sends
 * them, signed per Standard Webhooks, keeping a log of every attempt; the replayer queues the
 * events of a replay request again from the log, and the pruner applies the log's retention.
 * Embedded, or as several instances of the distributed wiring: one instance at a time serves the
 * fan-out (the store's subscription lease), and the instances share the endpoints' queues and
 * replays through leases per endpoint; see docs/webhooks.md.
 */
import type { Clock } from '@parcel-logistics/domain';
import type { EventStore, Subscription } from '@parcel-logistics/eventstore';
import type { WebhookDeliveries, WebhookStore } from '@parcel-logistics/webhooks';
import type { Logger } from 'pino';
import { startDispatcher } from './delivering/worker.ts';
import type { DeliveryConfig } from './delivering/worker.ts';
import { fanOut } from './fanningOut/worker.ts';
import { startReplayer } from './replaying/worker.ts';
import { startPruner } from './retaining/worker.ts';

export type { DeliveryConfig } from './delivering/worker.ts';
export const WEBHOOK_SUBSCRIPTION = 'webhook-fan-out';

export interface WebhookServiceDeps {
  eventStore: EventStore;
  endpoints: WebhookStore;
  deliveries: WebhookDeliveries;
  /** Real time: receivers check `webhook-timestamp` against their own clocks. */
  clock: Clock;
  log: Logger;
  config: DeliveryConfig & { retentionMs: number };
  /** The client's account is disabled: its deliveries wait until it is enabled again (the account directory's `isDisabled`). */
  paused?: (clientId: string) => boolean;
  /** This instance's name in the endpoint leases (the process's instance id). */
  owner: string;
}

export function createWebhookService(deps: WebhookServiceDeps) {
  let subscription: Subscription | undefined;
  let workers: { stop(): Promise<void> }[] = [];
  return {
    async start() {
      const dispatcher = startDispatcher(deps);
      const queue = fanOut(deps);
      subscription = deps.eventStore.subscribeToAll({
        subscriptionId: WEBHOOK_SUBSCRIPTION,
        // What a page queued goes out at once, not at the dispatcher's next poll; a page that
        // queued nothing (most of them, for accounts without endpoints) wakes nothing.
        handleBatch: async (page) => {
          if ((await queue(page)) > 0) dispatcher.wake();
        },
        pollIntervalMs: deps.config.pollIntervalMs,
      });
      workers = [
        dispatcher,
        startReplayer({ ...deps, pollIntervalMs: deps.config.pollIntervalMs, leaseMs: deps.config.leaseMs }),
        startPruner({ ...deps, retentionMs: deps.config.retentionMs }),
      ];
    },
    /** Resolves once every event committed so far is queued for its endpoints. */
    async caughtUp() {
      await subscription?.caughtUp();
    },
    async stop() {
      await subscription?.stop();
      await Promise.all(workers.map((w) => w.stop()));
    },
  };
}
