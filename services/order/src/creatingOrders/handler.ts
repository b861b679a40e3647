/**
 * B2 create-orders (when enabled): the validated orders are recorded in a batch stream before the
 * reply, so an accepted order cannot be lost; the batch worker (worker.ts) then creates them.
 */
import { batchStreamName } from '@parcel-logistics/contracts';
import type { AcceptOrderBatch, AcceptOrderBatchReply } from '@parcel-logistics/contracts';
import { handleCommand } from '@parcel-logistics/application';
import { formatSgt, orderBatchDecider } from '@parcel-logistics/domain';
import type { CreateOrderDeps } from '../creatingOrder/handler.ts';

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
