/**
 * Publishes every parcel event to `parcel.events.v1` from the store's own log with a stored
 * checkpoint (the checkpoint moves only after the bus acknowledged the whole page), so nothing
 * committed is lost between the store and the bus; a crash or a failed send re-publishes at most
 * the last page (same event ids: consumers deduplicate by id).
 */
import { parcelEventMessage, parcelOwners, toParcelEvent } from '@parcel-logistics/application';
import { DOWNSTREAM_HEADERS, PARCEL_STREAM_PREFIX, Topics } from '@parcel-logistics/contracts';
import type { Bus, Message } from '@parcel-logistics/bus';
import type { EventStore, RecordedEvent, Subscription } from '@parcel-logistics/eventstore';

const PUBLISHER_SUBSCRIPTION = 'parcel-events-publisher';

export function startEventPublisher(deps: { eventStore: EventStore; bus: Bus; pollIntervalMs?: number }): Subscription {
  const { remember, ownerOf } = parcelOwners(deps.eventStore);

  async function message(recorded: RecordedEvent): Promise<Message> {
    const event = toParcelEvent(recorded);
    const trackingNumber = event.data.trackingNumber;
    let clientId: string;
    if (event.type === 'ParcelRegistered') {
      clientId = event.data.clientId;
      remember(trackingNumber, clientId);
    } else {
      clientId = await ownerOf(trackingNumber);
    }
    const traceparent = recorded.metadata.traceparent;
    const payload = parcelEventMessage(recorded, event, clientId);
    return {
      id: recorded.id,
      key: trackingNumber,
      type: payload.schema,
      payload,
      headers: {
        [DOWNSTREAM_HEADERS.eventType]: payload.schema,
        [DOWNSTREAM_HEADERS.eventId]: recorded.id,
        ...(typeof traceparent === 'string' ? { [DOWNSTREAM_HEADERS.traceparent]: traceparent } : {}),
      },
    };
  }

  /**
   * A page of the log: every message built first, then all published at once, in log order, so
   * the bus sends them in one request (Kafka: one produce request per page rather than per event).
   */
  async function publishPage(page: readonly RecordedEvent[]): Promise<void> {
    const messages: Message[] = [];
    for (const recorded of page)
      if (recorded.streamName.startsWith(PARCEL_STREAM_PREFIX)) messages.push(await message(recorded));
    await Promise.all(messages.map((m) => deps.bus.publish(Topics.parcelEvents, m)));
  }

  return deps.eventStore.subscribeToAll({
    subscriptionId: PUBLISHER_SUBSCRIPTION,
    handleBatch: publishPage,
    ...(deps.pollIntervalMs ? { pollIntervalMs: deps.pollIntervalMs } : {}),
  });
}
