/** The event of a batch's stream, beside its decider (decider.ts). */
import type { ParcelRegistration } from '../parcel/events.ts';

/**
 * A batch of validated orders, recorded before the reply and created from the log: B2's (when
 * enabled), or one part of a CSV import's (with `importRows`).
 */
export interface OrderBatchAccepted {
  type: 'OrderBatchAccepted';
  data: {
    batchId: string;
    clientId: string;
    orders: ParcelRegistration[];
    /**
     * A part of an import: each order's row in the file. The import's worker creates these orders
     * (the batch worker passes them by). Absent in B2's batches, and in every batch stored before imports.
     */
    importRows?: number[];
    acceptedAt: Date;
  };
}
