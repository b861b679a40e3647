export type { CreateOutcome, SigningSecret, WebhookEndpoint, WebhookStore } from './port.ts';
export type {
  DeliveryAttempt,
  DeliveryMessage,
  DeliveryState,
  MessageCursor,
  PendingDelivery,
  PruneCounts,
  QueuedDelivery,
  RecordedAttempt,
  RedeliverOutcome,
  ReplayRequest,
  ReplayStatus,
  WebhookDeliveries,
} from './deliveries.ts';
export { newSigningSecret, SECRET_PREFIX } from './secrets.ts';
export { literalAddress, refusedRange } from './destinations.ts';
export type { DestinationPolicy } from './destinations.ts';
