/**
 * B2 create-orders (when enabled): the validated orders are recorded in a batch stream before the
 * reply, so an accepted order cannot be lost; the batch worker (worker.ts) then creates them.
 */
import { batchStreamName } from '@parcel-logistics/contracts';
import type { AcceptOrderBatch, AcceptOrderBatchReply } from '@parcel-logistics/contracts';
import { handleCommand } from '@parcel-logistics/application';
import { formatSgt, orderBatchDecider } from '@parcel-logistics/domain';
import type { CreateOrderDeps } from '../creatingOrder/handler.ts';

/** Records a batch: B2's, or (with `importRows`) one part of a CSV import (importingOrders/handler.ts). */
export async function acceptOrderBatch(
  deps: Pick<CreateOrderDeps, 'eventStore' | 'clock'>,
  command: AcceptOrderBatch['payload'] & { importRows?: number[] },
  commandId: string,
): Promise<AcceptOrderBatchReply> {
  const { batchId, clientId, orders, importRows } = command;
  const now = deps.clock.now();
  // A redelivered command finds its batch recorded already: the decider records nothing more.
  await handleCommand(
    deps.eventStore,
    batchStreamName(batchId),
    orderBatchDecider,
    { type: 'RecordOrderBatch', data: { batchId, clientId, orders, ...(importRows ? { importRows } : {}), now } },
    { metadata: { commandId, clientId }, eventId: () => `${batchId}:accepted` },
  );
  return { ok: true, acceptedAt: formatSgt(now) };
}
