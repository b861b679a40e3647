/**
 * B2 create-orders (when enabled): the validated orders are recorded in a batch stream before the
 * reply, so an accepted order cannot be lost; a catch-up subscription on the store then creates
 * them one by one with the same uniqueness rule as create-order. Each order's command id is
 * derived from the batch, so a redelivered batch creates nothing twice.
 */
import { BATCH_STREAM_PREFIX, batchStreamName, deserializeEvent } from '@parcel-logistics/contracts';
import type { AcceptOrderBatch, AcceptOrderBatchReply } from '@parcel-logistics/contracts';
import { handleCommand } from '@parcel-logistics/application';
import { formatSgt, orderBatchDecider } from '@parcel-logistics/domain';
import type { RecordedEvent, Subscription } from '@parcel-logistics/eventstore';
import { createOrder } from '../creatingOrder/createOrder.ts';
import type { CreateOrderDeps } from '../creatingOrder/createOrder.ts';

const BATCH_SUBSCRIPTION = 'order-batches';

export async function acceptOrderBatch(
  deps: CreateOrderDeps,
  command: AcceptOrderBatch['payload'],
  commandId: string,
): Promise<AcceptOrderBatchReply> {
  const { clientId } = command;
  const now = deps.clock.now();
  // A redelivered command finds its batch recorded already: the decider records nothing more.
  await handleCommand(
    deps.eventStore,
    batchStreamName(command.batchId),
    orderBatchDecider,
    { type: 'RecordOrderBatch', data: { batchId: command.batchId, clientId, orders: command.orders, now } },
    { metadata: { commandId, clientId }, eventId: () => `${command.batchId}:accepted` },
  );
  return { ok: true, acceptedAt: formatSgt(now) };
}

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
