/**
 * From the store's log to the delivery queue: each client-visible parcel event is queued for every
 * enabled endpoint of the parcel's own account subscribed to its type, with its `parcel.events.v1`
 * body. The subscription's checkpoint moves only after the page is queued, and queueing is
 * idempotent, so a crash loses nothing and queues nothing twice.
 */
import { parcelEventMessage, parcelOwners, toParcelEvent } from '@parcel/application';
import { PARCEL_STREAM_PREFIX, WEBHOOK_EVENT_TYPES } from '@parcel/contracts';
import type { WebhookEventType } from '@parcel/contracts';
import type { Clock } from '@parcel/domain';
import type { EventStore, RecordedEvent } from '@parcel/eventstore';
import type { QueuedDelivery, WebhookDeliveries, WebhookStore } from '@parcel/webhooks';

const clientVisible = (type: string): type is WebhookEventType => (WEBHOOK_EVENT_TYPES as readonly string[]).includes(type);

export function fanOut(deps: { eventStore: EventStore; endpoints: WebhookStore; deliveries: WebhookDeliveries; clock: Clock }) {
  const owners = parcelOwners(deps.eventStore);
  return async (page: readonly RecordedEvent[]): Promise<void> => {
    const queued: QueuedDelivery[] = [];
    for (const recorded of page) {
      if (!recorded.streamName.startsWith(PARCEL_STREAM_PREFIX)) continue;
      const event = toParcelEvent(recorded);
      if (!clientVisible(event.type)) continue;
      const trackingNumber = event.data.trackingNumber;
      let clientId: string;
      if (event.type === 'ParcelRegistered') {
        clientId = event.data.clientId;
        owners.remember(trackingNumber, clientId);
      } else {
        clientId = await owners.ownerOf(trackingNumber);
      }
      const endpoints = (await deps.endpoints.list(clientId)).filter((e) => e.enabled && e.eventTypes.includes(event.type as WebhookEventType));
      if (endpoints.length === 0) continue;
      const body = JSON.stringify(parcelEventMessage(recorded, event, clientId));
      for (const e of endpoints) queued.push({ endpointId: e.id, eventId: recorded.id, position: recorded.globalPosition, body });
    }
    await deps.deliveries.enqueue(queued, deps.clock.now());
  };
}
