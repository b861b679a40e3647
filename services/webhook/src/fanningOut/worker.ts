/**
 * From the store's log to the delivery queue: each client-visible event is queued for every
 * enabled endpoint of its own account subscribed to its type, with its body (a parcel's event's
 * `parcel.events.v2` message, or an account event's, accountEvents.ts): nothing personal, so neither the delivery log nor a replay after erasure holds a personal
 * value. The subscription's checkpoint moves only after the page is queued, and queueing is
 * idempotent, so a crash loses nothing and queues nothing twice.
 */
import { parcelEventMessageV2, parcelFacts, toParcelEvent } from '@parcel-logistics/application';
import { PARCEL_STREAM_PREFIX, WEBHOOK_EVENT_TYPES } from '@parcel-logistics/contracts';
import type { WebhookEventType } from '@parcel-logistics/contracts';
import type { Clock } from '@parcel-logistics/domain';
import type { EventStore, RecordedEvent } from '@parcel-logistics/eventstore';
import type { QueuedDelivery, WebhookDeliveries, WebhookEndpoint, WebhookStore } from '@parcel-logistics/webhooks';
import { accountEvents } from './accountEvents.ts';

const clientVisible = (type: string): type is WebhookEventType =>
  (WEBHOOK_EVENT_TYPES as readonly string[]).includes(type);

interface VisibleEvent {
  recorded: RecordedEvent;
  type: WebhookEventType;
  clientId: string;
  /** The `parcel.events.v2` JSON text sent for it. */
  body(): string;
}

/** The client-visible events of a page of the log, each with its account (fan-out and replay alike). */
export function visibleEvents(eventStore: EventStore) {
  const facts = parcelFacts(eventStore);
  const accountEventOf = accountEvents(eventStore);
  return async (page: readonly RecordedEvent[]): Promise<VisibleEvent[]> => {
    const visible: VisibleEvent[] = [];
    for (const recorded of page) {
      if (!recorded.streamName.startsWith(PARCEL_STREAM_PREFIX)) {
        const event = await accountEventOf(recorded);
        if (event)
          visible.push({
            recorded,
            type: event.type,
            clientId: event.clientId,
            body: () => JSON.stringify(event.message),
          });
        continue;
      }
      const event = toParcelEvent(recorded);
      const type = event.type;
      // Every parcel event passes the facts, so that they learn of an erasure in log order.
      const known = await facts.of(recorded, event);
      if (!clientVisible(type)) continue;
      const { clientId } = known;
      visible.push({
        recorded,
        type,
        clientId,
        body: () => JSON.stringify(parcelEventMessageV2(recorded, event, known)),
      });
    }
    return visible;
  };
}

export const subscribes = (endpoint: WebhookEndpoint, type: WebhookEventType) => endpoint.eventTypes.includes(type);

/** Queues a page's deliveries; resolves with how many it queued. */
export function fanOut(deps: {
  eventStore: EventStore;
  endpoints: WebhookStore;
  deliveries: WebhookDeliveries;
  clock: Clock;
}) {
  const visible = visibleEvents(deps.eventStore);
  return async (page: readonly RecordedEvent[]): Promise<number> => {
    const queued: QueuedDelivery[] = [];
    // Each account's endpoints read once per page, not once per event.
    const listed = new Map<string, Promise<WebhookEndpoint[]>>();
    const endpointsOf = (clientId: string) => {
      let list = listed.get(clientId);
      if (!list) listed.set(clientId, (list = deps.endpoints.list(clientId)));
      return list;
    };
    for (const v of await visible(page)) {
      const endpoints = (await endpointsOf(v.clientId)).filter((e) => e.enabled && subscribes(e, v.type));
      if (endpoints.length === 0) continue;
      const body = v.body();
      for (const e of endpoints)
        queued.push({ endpointId: e.id, eventId: v.recorded.id, position: v.recorded.globalPosition, body });
    }
    await deps.deliveries.enqueue(queued, deps.clock.now());
    return queued.length;
  };
}
