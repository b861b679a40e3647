/**
 * Publishes every parcel event downstream from the store's own log with a stored checkpoint (the
 * checkpoint moves only after the bus acknowledged the whole page), so nothing committed is lost
 * between the store and the bus; a crash or a failed send re-publishes at most the last page (same
 * event ids: consumers deduplicate by id). Per event, in log order:
 *
 * - `parcel.events.v2`: the event without its personal values, and whether they were erased;
 * - `parcel.personal.v1` (compacted, keyed by tracking number): the parcel's personal values whenever
 *   they change (registration, a carrier event naming a signer or bringing a proof of delivery), and
 *   the key's tombstone on `PersonalDataErased`;
 * - `parcel.events.v1`, only with `downstreamV1` (PARCEL_DOWNSTREAM_V1=on): the event as stored,
 *   personal values in clear, for consumers that cannot move yet; what it published cannot be erased.
 */
import {
  parcelEventMessage,
  parcelEventMessageV2,
  parcelFacts,
  parcelPersonalMessage,
  signatureOf,
  toParcelEvent,
} from '@parcel-logistics/application';
import { DOWNSTREAM_HEADERS, PARCEL_STREAM_PREFIX, parcelStreamName, Topics } from '@parcel-logistics/contracts';
import { tombstone } from '@parcel-logistics/bus';
import type { Bus, Message } from '@parcel-logistics/bus';
import type { ParcelEvent, ParcelRegistered } from '@parcel-logistics/domain';
import type { EventStore, RecordedEvent, Subscription } from '@parcel-logistics/eventstore';

const PUBLISHER_SUBSCRIPTION = 'parcel-events-publisher';

/** The types `parcel.events.v1`'s schema lists: it keeps its schema, so an erasure is not announced there. */
const V1_TYPES: ReadonlySet<ParcelEvent['type']> = new Set([
  'ParcelRegistered',
  'LabelGenerated',
  'ParcelCancelled',
  'CarrierRegistered',
  'CarrierRegistrationFailed',
  'CarrierEventRecorded',
]);

/** The type of the messages of `parcel.personal.v1` (the tombstones are typed by the erasure's stored type). */
export const PARCEL_PERSONAL_TYPE = 'ParcelPersonal.v1';

export interface EventPublisherDeps {
  eventStore: EventStore;
  bus: Bus;
  pollIntervalMs?: number;
  /** Publish `parcel.events.v1` too (PARCEL_DOWNSTREAM_V1=on). Off by default. */
  downstreamV1?: boolean;
}

interface Outgoing {
  topic: string;
  message: Message;
}

export function startEventPublisher(deps: EventPublisherDeps): Subscription {
  const facts = parcelFacts(deps.eventStore);

  const headersOf = (recorded: RecordedEvent, type: string): Record<string, string> => {
    const traceparent = recorded.metadata.traceparent;
    return {
      [DOWNSTREAM_HEADERS.eventType]: type,
      [DOWNSTREAM_HEADERS.eventId]: recorded.id,
      ...(typeof traceparent === 'string' ? { [DOWNSTREAM_HEADERS.traceparent]: traceparent } : {}),
    };
  };

  /** The parcel's registration as read now (its personal values, unless erased meanwhile). */
  async function registrationOf(trackingNumber: string): Promise<ParcelRegistered | undefined> {
    const [first] = await deps.eventStore.readStream(parcelStreamName(trackingNumber));
    const event = first ? toParcelEvent(first) : undefined;
    return event?.type === 'ParcelRegistered' ? event : undefined;
  }

  /** The `parcel.personal.v1` message the event calls for, if any. */
  async function personalMessage(recorded: RecordedEvent, event: ParcelEvent): Promise<Message | undefined> {
    const key = event.data.trackingNumber;
    if (event.type === 'PersonalDataErased')
      return tombstone(key, recorded.id, recorded.type, headersOf(recorded, recorded.type));
    const signature = signatureOf(recorded, event);
    const registered = event.type === 'ParcelRegistered' ? event : signature ? await registrationOf(key) : undefined;
    const payload = registered && parcelPersonalMessage(recorded, registered, signature);
    if (!payload) return undefined;
    return {
      id: recorded.id,
      key,
      type: PARCEL_PERSONAL_TYPE,
      payload,
      headers: headersOf(recorded, PARCEL_PERSONAL_TYPE),
    };
  }

  async function messagesOf(recorded: RecordedEvent): Promise<Outgoing[]> {
    const event = toParcelEvent(recorded);
    const key = event.data.trackingNumber;
    const known = await facts.of(recorded, event);
    const v2 = parcelEventMessageV2(recorded, event, known);
    const out: Outgoing[] = [
      {
        topic: Topics.parcelEventsV2,
        message: { id: recorded.id, key, type: v2.schema, payload: v2, headers: headersOf(recorded, v2.schema) },
      },
    ];
    const personal = await personalMessage(recorded, event);
    if (personal) out.push({ topic: Topics.parcelPersonal, message: personal });
    if (deps.downstreamV1 && V1_TYPES.has(event.type)) {
      const v1 = parcelEventMessage(recorded, event, known.clientId);
      out.push({
        topic: Topics.parcelEvents,
        message: { id: recorded.id, key, type: v1.schema, payload: v1, headers: headersOf(recorded, v1.schema) },
      });
    }
    return out;
  }

  /**
   * A page of the log: every message built first, then all published at once, in log order, so
   * the bus sends them in one request (Kafka: one produce request per page rather than per event)
   * and the messages of one key keep their order on each topic.
   */
  async function publishPage(page: readonly RecordedEvent[]): Promise<void> {
    const outgoing: Outgoing[] = [];
    for (const recorded of page)
      if (recorded.streamName.startsWith(PARCEL_STREAM_PREFIX)) outgoing.push(...(await messagesOf(recorded)));
    await Promise.all(outgoing.map(({ topic, message }) => deps.bus.publish(topic, message)));
  }

  return deps.eventStore.subscribeToAll({
    subscriptionId: PUBLISHER_SUBSCRIPTION,
    handleBatch: publishPage,
    ...(deps.pollIntervalMs ? { pollIntervalMs: deps.pollIntervalMs } : {}),
  });
}
