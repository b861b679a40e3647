/**
 * Publishes every parcel event to `parcel.events.v1` from the store's own log with a stored
 * checkpoint (the checkpoint moves only after the bus acknowledged), so nothing committed is lost
 * between the store and the bus; a crash re-publishes at most the last batch (same event ids).
 */
import { DOWNSTREAM_HEADERS, PARCEL_STREAM_PREFIX, parcelStreamName, Topics } from '@parcel/contracts';
import type { ParcelRegistered } from '@parcel/contracts';
import type { Bus } from '@parcel/bus';
import type { EventStore, RecordedEvent, Subscription } from '@parcel/eventstore';
import { parcelEventMessage, toParcelEvent } from './parcelEventMessage.ts';

export const PUBLISHER_SUBSCRIPTION = 'parcel-events-publisher';
const OWNER_CACHE_SIZE = 10_000;

export function startEventPublisher(deps: { eventStore: EventStore; bus: Bus; pollIntervalMs?: number }): Subscription {
  const owners = new Map<string, string>();

  /** The account of a parcel, from its first event (cached: it never changes). */
  async function ownerOf(trackingNumber: string): Promise<string> {
    const cached = owners.get(trackingNumber);
    if (cached) return cached;
    const [first] = await deps.eventStore.readStream(parcelStreamName(trackingNumber));
    const clientId = first ? (toParcelEvent(first) as ParcelRegistered).data.clientId : '';
    if (owners.size >= OWNER_CACHE_SIZE) owners.delete(owners.keys().next().value!);
    owners.set(trackingNumber, clientId);
    return clientId;
  }

  async function publish(recorded: RecordedEvent): Promise<void> {
    if (!recorded.streamName.startsWith(PARCEL_STREAM_PREFIX)) return;
    const event = toParcelEvent(recorded);
    const trackingNumber = event.data.trackingNumber;
    const clientId = event.type === 'ParcelRegistered' ? event.data.clientId : await ownerOf(trackingNumber);
    const traceparent = recorded.metadata.traceparent;
    await deps.bus.publish(Topics.parcelEvents, {
      id: recorded.id,
      key: trackingNumber,
      type: recorded.type,
      payload: parcelEventMessage(recorded, event, clientId),
      headers: {
        [DOWNSTREAM_HEADERS.eventType]: recorded.type,
        [DOWNSTREAM_HEADERS.eventId]: recorded.id,
        ...(typeof traceparent === 'string' ? { [DOWNSTREAM_HEADERS.traceparent]: traceparent } : {}),
      },
    });
  }

  return deps.eventStore.subscribeToAll({
    subscriptionId: PUBLISHER_SUBSCRIPTION,
    handler: publish,
    ...(deps.pollIntervalMs ? { pollIntervalMs: deps.pollIntervalMs } : {}),
  });
}
