/** The downstream message of one stored parcel event (packages/contracts/src/downstream.ts). */
import { deserializeEvent, parcelRegisteredV1 } from '@parcel-logistics/contracts';
import type { ParcelEventMessage } from '@parcel-logistics/contracts';
import type { ParcelEvent } from '@parcel-logistics/domain';
import { formatSgt } from '@parcel-logistics/domain';
import type { RecordedEvent } from '@parcel-logistics/eventstore';

function statusAndTime(event: ParcelEvent): { statusCode: string | null; at: Date } {
  switch (event.type) {
    case 'ParcelRegistered':
      return { statusCode: 'DR_DR', at: event.data.registeredAt };
    case 'LabelGenerated':
      return { statusCode: 'LB_GN', at: event.data.generatedAt };
    case 'ParcelCancelled':
      return { statusCode: 'CN_CN', at: event.data.cancelledAt };
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

export const toParcelEvent = (recorded: RecordedEvent): ParcelEvent => deserializeEvent(recorded) as ParcelEvent;
