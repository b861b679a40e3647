/**
 * B2 create-orders (when enabled): a catch-up subscription on the store creates the orders of each
 * batch recorded (handler.ts) one by one, with the same uniqueness rule as create-order. Each
 * order's command id is derived from the batch, so a redelivered batch creates nothing twice.
 */
import { BATCH_STREAM_PREFIX, deserializeEvent } from '@parcel-logistics/contracts';
import type { RecordedEvent, Subscription } from '@parcel-logistics/eventstore';
import { createOrder } from '../creatingOrder/handler.ts';
import type { CreateOrderDeps } from '../creatingOrder/handler.ts';

const BATCH_SUBSCRIPTION = 'order-batches';

export function startBatchWorker(
  deps: CreateOrderDeps & { pollIntervalMs?: number; onRejected?: (ref: string) => void },
): Subscription {
  async function handle(recorded: RecordedEvent): Promise<void> {
    if (!recorded.streamName.startsWith(BATCH_STREAM_PREFIX)) return;
    const event = deserializeEvent(recorded);
    if (event.type !== 'OrderBatchAccepted') return;
    const { batchId, orders } = event.data;
    for (const [index, payload] of orders.entries()) {
      const reply = await createOrder(deps, payload, { commandId: `${batchId}:${index}` });
      if (!reply.ok) deps.onRejected?.(payload.order.reference);
    }
  }
  return deps.eventStore.subscribeToAll({
    subscriptionId: BATCH_SUBSCRIPTION,
    handler: handle,
    ...(deps.pollIntervalMs ? { pollIntervalMs: deps.pollIntervalMs } : {}),
  });
}
