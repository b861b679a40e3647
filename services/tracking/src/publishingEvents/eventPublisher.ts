/**
 * Publishes every parcel event to `parcel.events.v1` from the store's own log with a stored
 * checkpoint (the checkpoint moves only after the bus acknowledged the whole page), so nothing
 * committed is lost between the store and the bus; a crash or a failed send re-publishes at most
 * the last page (same event ids: consumers deduplicate by id).
 */
import { DOWNSTREAM_HEADERS, PARCEL_STREAM_PREFIX, parcelStreamName, Topics } from '@parcel/contracts';
import type { ParcelRegistered } from '@parcel/contracts';
import type { Bus, Message } from '@parcel/bus';
import type { EventStore, RecordedEvent, Subscription } from '@parcel/eventstore';
import { parcelEventMessage, toParcelEvent } from './parcelEventMessage.ts';

const PUBLISHER_SUBSCRIPTION = 'parcel-events-publisher';
const OWNER_CACHE_SIZE = 10_000;

export function startEventPublisher(deps: { eventStore: EventStore; bus: Bus; pollIntervalMs?: number }): Subscription {
  const owners = new Map<string, string>();

  const remember = (trackingNumber: string, clientId: string): void => {
    if (owners.size >= OWNER_CACHE_SIZE) owners.delete(owners.keys().next().value!);
    owners.set(trackingNumber, clientId);
  };

  /** The account of a parcel, from its first event (cached: it never changes). */
  async function ownerOf(trackingNumber: string): Promise<string> {
    const cached = owners.get(trackingNumber);
    if (cached) return cached;
    const [first] = await deps.eventStore.readStream(parcelStreamName(trackingNumber));
    const clientId = first ? (toParcelEvent(first) as ParcelRegistered).data.clientId : '';
    remember(trackingNumber, clientId);
    return clientId;
  }

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
    for (const recorded of page) if (recorded.streamName.startsWith(PARCEL_STREAM_PREFIX)) messages.push(await message(recorded));
    await Promise.all(messages.map((m) => deps.bus.publish(Topics.parcelEvents, m)));
  }

  return deps.eventStore.subscribeToAll({
    subscriptionId: PUBLISHER_SUBSCRIPTION,
    handleBatch: publishPage,
    ...(deps.pollIntervalMs ? { pollIntervalMs: deps.pollIntervalMs } : {}),
  });
}
