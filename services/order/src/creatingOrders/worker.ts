/**
 * B2 create-orders (when enabled): a catch-up subscription on the store creates the orders of each
 * batch recorded (handler.ts) one by one, with the same uniqueness rule as create-order. Each
 * order's command id is derived from the batch, so a redelivered batch creates nothing twice. Once
 * every order of a batch is created, the batch's key is destroyed: its copy of the orders' personal
 * values is gone, and each parcel's own key then rules them (docs/personal-data.md).
 */
import { BATCH_STREAM_PREFIX, deserializeEvent } from '@parcel-logistics/contracts';
import type { RecordedEvent, Subscription } from '@parcel-logistics/eventstore';
import { createOrder } from '../creatingOrder/handler.ts';
import type { CreateOrderDeps } from '../creatingOrder/handler.ts';
import type { PersonalDataShredder } from '@parcel-logistics/application';

const BATCH_SUBSCRIPTION = 'order-batches';

export function startBatchWorker(
  deps: CreateOrderDeps & {
    pollIntervalMs?: number;
    onRejected?: (ref: string) => void;
    personalData?: Pick<PersonalDataShredder, 'destroyKey'>;
  },
): Subscription {
  async function handle(recorded: RecordedEvent): Promise<void> {
    const event = deserializeEvent(recorded);
    // An import's parts are the import worker's (importingOrders/worker.ts).
    if (event.type !== 'OrderBatchAccepted' || event.data.importRows) return;
    const { batchId, orders } = event.data;
    for (const [index, payload] of orders.entries()) {
      const reply = await createOrder(deps, payload, { commandId: `${batchId}:${index}` });
      if (!reply.ok) deps.onRejected?.(payload.order.reference);
    }
    await deps.personalData?.destroyKey(recorded.streamName);
  }
  return deps.eventStore.subscribeToAll({
    subscriptionId: BATCH_SUBSCRIPTION,
    streamPrefixes: [BATCH_STREAM_PREFIX],
    handler: handle,
    ...(deps.pollIntervalMs ? { pollIntervalMs: deps.pollIntervalMs } : {}),
  });
}
