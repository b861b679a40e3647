/**
 * CSV import: the gateway validates the file's rows and sends the accepted orders in parts, each
 * recorded as a batch stream of its own (`RecordImportPart`); then the import's summary
 * (`AcceptOrderImport`), which the import worker (worker.ts) creates the orders from. A part
 * recorded without its summary (the gateway stopped half-way) creates nothing.
 */
import { importPartBatchId, importResultOf, importStreamName } from '@parcel-logistics/contracts';
import type {
  AcceptOrderBatchReply,
  AcceptOrderImport,
  GetOrderImport,
  ImportResult,
  OrderCommands,
  RecordImportPart,
} from '@parcel-logistics/contracts';
import { handleCommand, readStreamState } from '@parcel-logistics/application';
import { orderImportDecider } from '@parcel-logistics/domain';
import type { CreateOrderDeps } from '../creatingOrder/handler.ts';
import { acceptOrderBatch } from '../creatingOrders/handler.ts';

/** A part is a batch of its own (`batch-<importId>.<part>`), its orders' rows beside them. */
export const recordImportPart = (
  deps: Pick<CreateOrderDeps, 'eventStore' | 'clock'>,
  { importId, clientId, part, orders, rows }: RecordImportPart['payload'],
  commandId: string,
): Promise<AcceptOrderBatchReply> =>
  acceptOrderBatch(deps, { batchId: importPartBatchId(importId, part), clientId, orders, importRows: rows }, commandId);

export async function acceptOrderImport(
  deps: Pick<CreateOrderDeps, 'eventStore' | 'clock'>,
  command: AcceptOrderImport['payload'],
  commandId: string,
): Promise<ImportResult> {
  const { clientId } = command;
  const decided = await handleCommand(
    deps.eventStore,
    importStreamName(command.importId),
    orderImportDecider,
    { type: 'AcceptOrderImport', data: { ...command, now: deps.clock.now() } },
    { metadata: { commandId, clientId }, eventId: () => `${command.importId}:accepted` },
  );
  const { newState } = decided;
  if (newState.status === 'none') throw new Error(`import ${command.importId} not recorded`);
  return importResultOf(newState);
}

export async function getOrderImport(
  deps: Pick<CreateOrderDeps, 'eventStore'>,
  query: GetOrderImport['payload'],
): Promise<OrderCommands['GetOrderImport']['reply']> {
  const { state } = await readStreamState(deps.eventStore, importStreamName(query.importId), orderImportDecider);
  if (state.status === 'none' || state.clientId !== query.clientId) return { found: false };
  return { found: true, import: importResultOf(state) };
}
