/**
 * Attribute names: OpenTelemetry's own where a convention exists (HTTP is stable; messaging is not
 * yet, so those keys are spelled out here), `parcel.*` for the domain's.
 */
export {
  ATTR_ERROR_TYPE,
  ATTR_HTTP_REQUEST_METHOD,
  ATTR_HTTP_RESPONSE_STATUS_CODE,
  ATTR_HTTP_ROUTE,
  ATTR_SERVICE_NAME,
  ATTR_URL_PATH,
} from '@opentelemetry/semantic-conventions';

export const ATTR_MESSAGING_SYSTEM = 'messaging.system';
export const ATTR_MESSAGING_DESTINATION_NAME = 'messaging.destination.name';
export const ATTR_MESSAGING_OPERATION_TYPE = 'messaging.operation.type';
export const ATTR_MESSAGING_MESSAGE_ID = 'messaging.message.id';
export const ATTR_MESSAGING_CONSUMER_GROUP_NAME = 'messaging.consumer.group.name';

export const ATTR_PARCEL_COMMAND_TYPE = 'parcel.command.type';
export const ATTR_PARCEL_EVENT_TYPE = 'parcel.event.type';
export const ATTR_PARCEL_EVENT_ID = 'parcel.event.id';
export const ATTR_PARCEL_EVENT_COUNT = 'parcel.event.count';
export const ATTR_PARCEL_STREAM_NAME = 'parcel.stream.name';
export const ATTR_PARCEL_STREAM_REVISION = 'parcel.stream.revision';
export const ATTR_PARCEL_STREAM_EXPECTED_REVISION = 'parcel.stream.expected_revision';
export const ATTR_PARCEL_LOG_POSITION = 'parcel.log.position';
export const ATTR_PARCEL_SUBSCRIPTION_ID = 'parcel.subscription.id';
export const ATTR_PARCEL_TRACKING_NUMBER = 'parcel.tracking_number';
export const ATTR_PARCEL_CLIENT_ID = 'parcel.client.id';
