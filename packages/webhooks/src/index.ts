export type { CreateOutcome, SigningSecret, WebhookEndpoint, WebhookStore } from './port.ts';
export type {
  DeliveryMessage,
  DeliveryState,
  MessageCursor,
  PendingDelivery,
  QueuedDelivery,
  RecordedAttempt,
  ReplayRequest,
  ReplayStatus,
  WebhookDeliveries,
} from './deliveries.ts';
export { TEST_EVENT_POSITION } from './deliveries.ts';
export { newSigningSecret, SECRET_PREFIX } from './secrets.ts';
export { literalAddress, refusedRange } from './destinations.ts';
export type { DestinationPolicy } from './destinations.ts';
