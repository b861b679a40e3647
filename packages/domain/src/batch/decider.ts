/**
 * The batch stream's decider: a validated batch of orders is recorded once. A redelivered command
 * finds it recorded and records nothing again.
 */
import type { Decider } from '../decider.ts';
import type { ParcelRegistration } from '../parcel/events.ts';
import type { OrderBatchAccepted } from './events.ts';

export type OrderBatchState = { status: 'none' } | { status: 'accepted'; acceptedAt: Date };

export interface RecordOrderBatch {
  type: 'RecordOrderBatch';
  data: { batchId: string; clientId: string; orders: ParcelRegistration[]; importRows?: number[]; now: Date };
}

export const orderBatchDecider: Decider<OrderBatchState, RecordOrderBatch, OrderBatchAccepted> = {
  decide({ data: { now, ...data } }, state) {
    if (state.status === 'accepted') return [];
    return [{ type: 'OrderBatchAccepted', data: { ...data, acceptedAt: now } }];
  },
  evolve: (_state, event) => ({ status: 'accepted', acceptedAt: event.data.acceptedAt }),
  initialState: () => ({ status: 'none' }),
};
