/** The event of a batch's stream. It has no decider: the order service records a validated batch as it is. */
import type { ParcelRegistration } from '../parcel/events.ts';

/** B2 (when enabled): a batch of validated orders, recorded before the reply and created from the log. */
export interface OrderBatchAccepted {
  type: 'OrderBatchAccepted';
  data: { batchId: string; clientId: string; orders: ParcelRegistration[]; acceptedAt: Date };
}
