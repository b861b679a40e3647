/**
 * The webhook service (issue 16): a checkpointed subscription on the store's log queues each
 * client-visible parcel event for its account's subscribed endpoints, and the dispatcher sends
 * them, signed per Standard Webhooks, keeping a log of every attempt; the replayer queues the
 * events of a replay request again from the log, and the pruner applies the log's retention.
 * Embedded only so far; see docs/webhooks.md.
 */
import type { Clock } from '@parcel/domain';
import type { EventStore, Subscription } from '@parcel/eventstore';
import type { WebhookDeliveries, WebhookStore } from '@parcel/webhooks';
import type { Logger } from 'pino';
import { startDispatcher } from './delivering/dispatcher.ts';
import type { DeliveryConfig } from './delivering/dispatcher.ts';
import { fanOut } from './delivering/fanOut.ts';
import { startReplayer } from './replaying/replayer.ts';
import { startPruner } from './retaining/pruner.ts';

export type { DeliveryConfig } from './delivering/dispatcher.ts';
export const WEBHOOK_SUBSCRIPTION = 'webhook-fan-out';

export interface WebhookServiceDeps {
  eventStore: EventStore;
  endpoints: WebhookStore;
  deliveries: WebhookDeliveries;
  /** Real time: receivers check `webhook-timestamp` against their own clocks. */
  clock: Clock;
  log: Logger;
  config: DeliveryConfig & { retentionMs: number };
}

export function createWebhookService(deps: WebhookServiceDeps) {
  let subscription: Subscription | undefined;
  let workers: { stop(): Promise<void> }[] = [];
  return {
    async start() {
      subscription = deps.eventStore.subscribeToAll({
        subscriptionId: WEBHOOK_SUBSCRIPTION,
        handleBatch: fanOut(deps),
        pollIntervalMs: deps.config.pollIntervalMs,
      });
      workers = [
        startDispatcher(deps),
        startReplayer({ ...deps, pollIntervalMs: deps.config.pollIntervalMs }),
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
