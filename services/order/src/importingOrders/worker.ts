/**
 * CSV import: a catch-up subscription on the store creates the orders of each import accepted
 * (handler.ts), part by part, with create-order's uniqueness rule. Each order's command id is
 * derived from its part and place, so an import redone after a crash creates nothing twice; each
 * part's outcome is recorded on the import's stream before the next part starts, so a restart
 * resumes at the first part not recorded. Once a part is recorded, its batch's key is destroyed:
 * its copy of the orders' personal values is gone, and each parcel's own key rules them. Parts
 * whose import was never recorded are left to `destroyAbandonedParts`.
 */
import {
  B,
  BATCH_STREAM_PREFIX,
  batchStreamName,
  deserializeEvent,
  IMPORT_STREAM_PREFIX,
  importIdOfPartStream,
  importPartBatchId,
  importStreamName,
} from '@parcel-logistics/contracts';
import { handleCommand, readStreamState } from '@parcel-logistics/application';
import type { PersonalDataShredder } from '@parcel-logistics/application';
import { orderImportDecider } from '@parcel-logistics/domain';
import type { OrderImportCommand, RejectedRow } from '@parcel-logistics/domain';
import type { RecordedEvent, Subscription } from '@parcel-logistics/eventstore';
import { createOrder } from '../creatingOrder/handler.ts';
import type { CreateOrderDeps } from '../creatingOrder/handler.ts';

const IMPORT_SUBSCRIPTION = 'order-imports';

export type ImportWorkerDeps = CreateOrderDeps & {
  pollIntervalMs?: number;
  personalData?: Pick<PersonalDataShredder, 'destroyKey'>;
};

export function startImportWorker(deps: ImportWorkerDeps): Subscription {
  async function handle(recorded: RecordedEvent): Promise<void> {
    const event = deserializeEvent(recorded);
    if (event.type === 'OrderImportAccepted') await runImport(deps, event.data.importId);
  }
  return deps.eventStore.subscribeToAll({
    subscriptionId: IMPORT_SUBSCRIPTION,
    streamPrefixes: [IMPORT_STREAM_PREFIX],
    handler: handle,
    ...(deps.pollIntervalMs ? { pollIntervalMs: deps.pollIntervalMs } : {}),
  });
}

/** Creates the orders of an import's parts not recorded yet, then finishes it. */
export async function runImport(deps: ImportWorkerDeps, importId: string): Promise<void> {
  const streamName = importStreamName(importId);
  const record = (command: OrderImportCommand) =>
    handleCommand(deps.eventStore, streamName, orderImportDecider, command, {
      metadata: { importId },
      eventId: deps.ids.eventId,
    });
  const { state } = await readStreamState(deps.eventStore, streamName, orderImportDecider);
  if (state.status !== 'running') return;
  // Parts recorded before a crash may still hold their key: destroying it again is harmless.
  for (let part = 0; part < state.partsCreated; part++)
    await deps.personalData?.destroyKey(batchStreamName(importPartBatchId(importId, part)));

  for (let part = state.partsCreated; part < state.parts; part++) {
    const batchId = importPartBatchId(importId, part);
    const outcome = await createPart(deps, batchId);
    await record({ type: 'RecordImportPart', data: { part, ...outcome, now: deps.clock.now() } });
    await deps.personalData?.destroyKey(batchStreamName(batchId));
  }
  await record({ type: 'FinishOrderImport', data: { now: deps.clock.now() } });
}

async function createPart(
  deps: CreateOrderDeps,
  batchId: string,
): Promise<{ created: number; rejected: RejectedRow[] }> {
  const [recorded] = await deps.eventStore.readStream(batchStreamName(batchId));
  const event = recorded && deserializeEvent(recorded);
  if (!event || event.type !== 'OrderBatchAccepted' || !event.data.importRows)
    throw new Error(`import part ${batchId} is not recorded`);
  const { orders, importRows } = event.data;
  let created = 0;
  const rejected: RejectedRow[] = [];
  for (const [index, payload] of orders.entries()) {
    const reply = await createOrder(deps, payload, { commandId: `${batchId}:${index}` });
    if (reply.ok) created++;
    else {
      const reference = payload.order.reference;
      rejected.push({ row: importRows[index]!, reference, message: B.referenceExists(reference) });
    }
  }
  return { created, rejected };
}

/** How long a part may wait for its import to be recorded before its key is destroyed. */
export const ABANDONED_PART_MS = 24 * 60 * 60 * 1000;

/**
 * Parts whose import was never recorded (the gateway stopped between the parts and the import's
 * summary, so the client got no answer and will send the file again): nothing creates their
 * orders, and their copy of the orders' personal values would be kept for nothing. A part accepted
 * ABANDONED_PART_MS ago or earlier whose import stream does not exist has its key destroyed, as a
 * created part has. The retention sweep runs this once per slot; answers how many keys it destroyed.
 */
export async function destroyAbandonedParts(
  deps: Pick<CreateOrderDeps, 'eventStore' | 'clock'> & {
    personalData: Pick<PersonalDataShredder, 'destroyKey' | 'keyedStreams'>;
  },
): Promise<number> {
  const acceptedBefore = deps.clock.now().getTime() - ABANDONED_PART_MS;
  let destroyed = 0;
  for await (const streamName of deps.personalData.keyedStreams(BATCH_STREAM_PREFIX)) {
    const importId = importIdOfPartStream(streamName);
    if (importId === undefined) continue;
    if ((await deps.eventStore.readStream(importStreamName(importId))).length > 0) continue;
    const [recorded] = await deps.eventStore.readStream(streamName);
    const event = recorded && deserializeEvent(recorded);
    if (!event || event.type !== 'OrderBatchAccepted' || event.data.acceptedAt.getTime() > acceptedBefore) continue;
    await deps.personalData.destroyKey(streamName);
    destroyed++;
  }
  return destroyed;
}
