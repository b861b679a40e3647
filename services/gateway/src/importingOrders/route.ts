/**
 * import-orders and get-import (docs/bulk.md): a CSV file of create-order rows is read and every row
 * validated as create-order validates a body; the accepted orders are recorded by the order service
 * in parts, then the import itself, before the answer; the orders are created from the log after it.
 */
import { randomUUID } from 'node:crypto';
import type { Router } from 'express';
import { parse } from 'csv-parse/sync';
import {
  B,
  check,
  CODE_SUCCESS,
  IMPORT_LIMITS,
  importColumnOf,
  importParts,
  ImportMessages,
  ImportQuery,
  orderBodyOf,
  validateCreateOrder,
} from '@parcel-logistics/contracts';
import type { ImportColumn, RecordImportPart } from '@parcel-logistics/contracts';
import type { ParcelRegistration, RejectedRow } from '@parcel-logistics/domain';
import { accountOf } from '../context.ts';
import type { GatewayCommands, GatewayContext, Mounting } from '../context.ts';
import { registrationOf } from '../creatingOrder/route.ts';
import { failB, sendB } from '../http/interfaces.ts';
import { mount } from '../http/mount.ts';

/** What the import routes reach: the order service's commands and the reference data. */
export interface ImportingOrdersDeps extends Mounting, Pick<GatewayContext, 'ref'> {
  commands: Pick<GatewayCommands, 'order'>;
}

type Read<T> = { ok: true; value: T } | { ok: false; message: string };

/** The file's records (header first), or the message of why it cannot be read. */
function recordsOf(body: unknown): Read<string[][]> {
  if (!Buffer.isBuffer(body)) return { ok: false, message: ImportMessages.notCsv };
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(body);
  } catch {
    return { ok: false, message: ImportMessages.notUtf8 };
  }
  try {
    const records = parse(text, {
      bom: true,
      skip_empty_lines: true,
      // Every record as wide as the header: a shifted row is an error, not a silent misread.
      relax_column_count: false,
      to: IMPORT_LIMITS.rows + 2,
    }) as string[][];
    return { ok: true, value: records };
  } catch (error) {
    // The records read whole before the bad one, the header included: the bad one's row number.
    const row = (error as { records?: number }).records ?? 0;
    return { ok: false, message: ImportMessages.csvInvalid(row) };
  }
}

/** The header's columns, or the message of the first one that is not a create-order field. */
function columnsOf(header: readonly string[]): Read<ImportColumn[]> {
  if (header.length > IMPORT_LIMITS.columns)
    return { ok: false, message: ImportMessages.tooManyColumns(IMPORT_LIMITS.columns) };
  const seen = new Set<string>();
  const columns: ImportColumn[] = [];
  for (const raw of header) {
    const name = raw.trim();
    const column = importColumnOf(name);
    if (!column) return { ok: false, message: ImportMessages.unknownColumn(name) };
    if (seen.has(name)) return { ok: false, message: ImportMessages.duplicateColumn(name) };
    seen.add(name);
    columns.push(column);
  }
  return { ok: true, value: columns };
}

export function importingOrders(router: Router, ctx: ImportingOrdersDeps): void {
  mount(router, ctx, 'importOrders', async (req, res) => {
    const records = recordsOf(req.body);
    if (!records.ok) return failB(res, records.message);
    const [header = [], ...rows] = records.value;
    const columns = columnsOf(header);
    if (!columns.ok) return failB(res, columns.message);
    if (rows.length === 0) return failB(res, ImportMessages.noRows);
    if (rows.length > IMPORT_LIMITS.rows) return failB(res, ImportMessages.tooManyRows(IMPORT_LIMITS.rows));

    const account = accountOf(res);
    const { clientId } = account;
    const rejected: RejectedRow[] = [];
    const accepted: { row: number; order: ParcelRegistration }[] = [];
    const seen = new Set<string>();
    for (const [i, cells] of rows.entries()) {
      const row = i + 1;
      const body = orderBodyOf(columns.value, cells);
      const reference = typeof body.custom_tracking_num === 'string' ? body.custom_tracking_num : '';
      const result = validateCreateOrder(body, { account, ref: ctx.ref });
      if (!result.ok) rejected.push({ row, reference, message: result.message });
      else if (seen.has(reference)) rejected.push({ row, reference, message: B.referenceExists(reference) });
      else {
        seen.add(reference);
        accepted.push({ row, order: registrationOf(account, result) });
      }
    }

    const importId = randomUUID();
    const parts = importParts(accepted).map((slice, part): RecordImportPart['payload'] => ({
      importId,
      clientId,
      part,
      orders: slice.map((a) => a.order),
      rows: slice.map((a) => a.row),
    }));
    // Every part is recorded before the import: its worker then finds all of them.
    for (const part of parts) await ctx.commands.order('RecordImportPart', importId, part);
    const summary = await ctx.commands.order('AcceptOrderImport', importId, {
      importId,
      clientId,
      rows: rows.length,
      accepted: accepted.length,
      parts: parts.length,
      // The count is rows - accepted; the list is what answers show (and what fits a bus command).
      rejected: rejected.slice(0, IMPORT_LIMITS.listedErrors),
    });
    sendB(res, CODE_SUCCESS, B.success, summary);
  });

  mount(router, ctx, 'getImport', async (req, res) => {
    const query = check(ImportQuery, req.query);
    if (!query.ok) return failB(res, query.message);
    const { import_id: importId } = query.value;
    const reply = await ctx.commands.order('GetOrderImport', importId, { clientId: accountOf(res).clientId, importId });
    if (!reply.found) return failB(res, ImportMessages.notFound);
    sendB(res, CODE_SUCCESS, B.success, reply.import);
  });
}
