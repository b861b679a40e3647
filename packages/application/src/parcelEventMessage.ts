/** The downstream messages of one stored parcel event (packages/contracts/src/downstream.ts). */
import {
  deserializeEvent,
  openStored,
  parcelRegisteredV1,
  sealStored,
  serializeEvent,
} from '@parcel-logistics/contracts';
import type {
  ParcelEventMessage,
  ParcelEventMessageV2,
  ParcelPersonalMessage,
  ParcelSignature,
  PersonalDataState,
  StoredEvent,
} from '@parcel-logistics/contracts';
import type { ParcelEvent, ParcelRegistered } from '@parcel-logistics/domain';
import { formatSgt, splitCarrierEventPersonal, splitPersonal } from '@parcel-logistics/domain';
import type { RecordedEvent } from '@parcel-logistics/eventstore';

function statusAndTime(event: ParcelEvent): { statusCode: string | null; at: Date } {
  switch (event.type) {
    case 'ParcelRegistered':
      return { statusCode: 'DR_DR', at: event.data.registeredAt };
    case 'LabelGenerated':
      return { statusCode: 'LB_GN', at: event.data.generatedAt };
    case 'ParcelCancelled':
      return { statusCode: 'CN_CN', at: event.data.cancelledAt };
    case 'ParcelManifested':
      return { statusCode: 'MF_MF', at: event.data.manifestedAt };
    case 'CarrierRegistered':
      return { statusCode: null, at: event.data.registeredAt };
    case 'CarrierRegistrationFailed':
      return { statusCode: null, at: event.data.failedAt };
    case 'CarrierEventRecorded':
      return { statusCode: event.data.statusCode, at: event.data.eventTime };
    case 'PersonalDataErased':
      return { statusCode: null, at: event.data.erasedAt };
    default: {
      const unhandled: never = event;
      throw new Error(`unknown event ${(unhandled as { type: string }).type}`);
    }
  }
}

/**
 * The topic is a public contract that speaks `ParcelRegistered.v1`, whatever version the store now
 * keeps: a later one is mapped back to it, byte for byte as version 1 was stored.
 */
function downstreamShape(recorded: RecordedEvent): { schema: string; data: Record<string, unknown> } {
  const data = recorded.data as Record<string, unknown>;
  return recorded.type === 'ParcelRegistered.v2'
    ? { schema: 'ParcelRegistered.v1', data: parcelRegisteredV1(data) }
    : { schema: recorded.type, data };
}

export function parcelEventMessage(recorded: RecordedEvent, event: ParcelEvent, clientId: string): ParcelEventMessage {
  const { statusCode, at } = statusAndTime(event);
  const { schema, data } = downstreamShape(recorded);
  return {
    type: event.type,
    schema,
    eventId: recorded.id,
    trackingNumber: event.data.trackingNumber,
    clientId,
    statusCode,
    time: formatSgt(at),
    streamRevision: recorded.revision,
    data,
  };
}

/** No key: what sealing keeps in clear, as a reader sees the event once its parcel's key is erased. */
const noKey = () => undefined;

/**
 * The event's clear part in the stored version `parcel.events.v1` speaks: split by the very forms
 * that seal personal values at rest (packages/contracts/src/sealedEvents.ts, on the domain's one
 * list), so the v2 topic holds exactly what the store keeps in clear once the parcel is erased.
 */
function clearShape(streamName: string, event: ParcelEvent): StoredEvent {
  const stored = serializeEvent(event);
  const clear = openStored(streamName, sealStored(streamName, stored, noKey), noKey);
  return clear.type === 'ParcelRegistered.v2'
    ? { type: 'ParcelRegistered.v1', data: parcelRegisteredV1(clear.data) }
    : clear;
}

/** What `parcel.events.v2` and webhooks know of the event's parcel besides the event. */
export interface DownstreamFacts {
  clientId: string;
  personalData: PersonalDataState;
}

/** The `parcel.events.v2` message (and webhook body) of one stored parcel event: nothing personal in it. */
export function parcelEventMessageV2(
  recorded: RecordedEvent,
  event: ParcelEvent,
  facts: DownstreamFacts,
): ParcelEventMessageV2 {
  const { statusCode, at } = statusAndTime(event);
  const { type: schema, data } = clearShape(recorded.streamName, event);
  return {
    type: event.type,
    schema,
    eventId: recorded.id,
    trackingNumber: event.data.trackingNumber,
    clientId: facts.clientId,
    statusCode,
    time: formatSgt(at),
    streamRevision: recorded.revision,
    personalData: facts.personalData,
    data,
  };
}

/** The signer and proof of delivery of a carrier event, when it has either. */
export function signatureOf(recorded: RecordedEvent, event: ParcelEvent): ParcelSignature | undefined {
  if (event.type !== 'CarrierEventRecorded') return undefined;
  const { receiveBy, pod } = splitCarrierEventPersonal(event.data).personal;
  if (receiveBy === '' && pod.length === 0) return undefined;
  return {
    receiveBy,
    pod,
    statusCode: event.data.statusCode,
    time: formatSgt(event.data.eventTime),
    eventId: recorded.id,
  };
}

/**
 * The `parcel.personal.v1` value of a parcel: its registration's personal values and the latest
 * signature, as of `recorded`. Undefined when the registration holds none (read after erasure:
 * the key's tombstone is written, or about to be, and nothing is to be published before it).
 */
export function parcelPersonalMessage(
  recorded: RecordedEvent,
  registered: ParcelRegistered,
  signature: ParcelSignature | undefined,
): ParcelPersonalMessage | undefined {
  const { recipient, sender, instruction } = splitPersonal(registered.data.order).personal;
  const values = [...Object.values(recipient), ...Object.values(sender), instruction];
  if (!values.some((v) => v !== undefined && v !== '')) return undefined;
  return {
    trackingNumber: registered.data.trackingNumber,
    clientId: registered.data.clientId,
    recipient,
    sender,
    ...(instruction !== undefined ? { instruction } : {}),
    ...(signature ? { signature } : {}),
    eventId: recorded.id,
    streamRevision: recorded.revision,
  };
}

export const toParcelEvent = (recorded: RecordedEvent): ParcelEvent => deserializeEvent(recorded) as ParcelEvent;
