/**
 * The webhook service (issue 16): a checkpointed subscription on the store's log queues each
 * client-visible parcel event for its account's subscribed endpoints, and the dispatcher sends
 * them, signed per Standard Webhooks. Embedded, or as several instances of the distributed wiring:
 * one instance at a time serves the fan-out (the store's subscription lease), and the instances
 * share the endpoints' queues through leases per endpoint; see docs/webhooks.md.
 */
import type { Clock } from '@parcel/domain';
import type { EventStore, Subscription } from '@parcel/eventstore';
import type { WebhookDeliveries, WebhookStore } from '@parcel/webhooks';
import type { Logger } from 'pino';
import { startDispatcher } from './delivering/dispatcher.ts';
import type { DeliveryConfig } from './delivering/dispatcher.ts';
import { fanOut } from './delivering/fanOut.ts';

export type { DeliveryConfig } from './delivering/dispatcher.ts';
export const WEBHOOK_SUBSCRIPTION = 'webhook-fan-out';

export interface WebhookServiceDeps {
  eventStore: EventStore;
  endpoints: WebhookStore;
  deliveries: WebhookDeliveries;
  /** Real time: receivers check `webhook-timestamp` against their own clocks. */
  clock: Clock;
  log: Logger;
  config: DeliveryConfig;
  /** This instance's name in the endpoint leases (the process's instance id). */
  owner: string;
}

export function createWebhookService(deps: WebhookServiceDeps) {
  let subscription: Subscription | undefined;
  let dispatcher: { stop(): Promise<void> } | undefined;
  return {
    async start() {
      subscription = deps.eventStore.subscribeToAll({
        subscriptionId: WEBHOOK_SUBSCRIPTION,
        handleBatch: fanOut(deps),
        pollIntervalMs: deps.config.pollIntervalMs,
      });
      dispatcher = startDispatcher(deps);
    },
    /** Resolves once every event committed so far is queued for its endpoints. */
    async caughtUp() {
      await subscription?.caughtUp();
    },
    async stop() {
      await subscription?.stop();
      await dispatcher?.stop();
    },
  };
}
