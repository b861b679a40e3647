/** The event of a batch's stream, beside its decider (decider.ts). */
import type { ParcelRegistration } from '../parcel/events.ts';

/** B2 (when enabled): a batch of validated orders, recorded before the reply and created from the log. */
export interface OrderBatchAccepted {
  type: 'OrderBatchAccepted';
  data: { batchId: string; clientId: string; orders: ParcelRegistration[]; acceptedAt: Date };
}
