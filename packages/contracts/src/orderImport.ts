/**
 * CSV import of interface B: the file's limits and columns, the answer of import-orders and
 * get-import, and the messages (docs/bulk.md). The answer is built from the import stream's state,
 * which holds counts and messages only.
 */
import { z } from 'zod';
import type { OrderImportState } from '@parcel-logistics/domain';
import { formatSgt } from '@parcel-logistics/domain';
import { LINE_FIELDS, ORDER_FIELDS, STATION_FIELDS } from './orderMapping.ts';
import { queryParam } from './requests.ts';

export const IMPORT_LIMITS = {
  /** Data rows (orders) of one file. */
  rows: 10_000,
  /** Columns of the header. */
  columns: 256,
  /** Item rows of one order (`item[0].…` to `item[49].…`). */
  items: 50,
  /** Orders per part: each part is one bus command and one batch stream. */
  partSize: 200,
  /**
   * A part's orders as JSON, at most (one order larger than it is a part alone): well under the
   * 1 MiB a Kafka record of the order service's command topic may hold, whatever the orders' items.
   */
  partBytes: 512 * 1024,
  /** Rejected rows an answer lists (the count is always whole). */
  listedErrors: 1000,
} as const;

export const ImportMessages = {
  notCsv: 'Content-Type must be text/csv',
  notUtf8: 'The file is not UTF-8',
  /** `row` counts as `errors` do: 1 is the first row under the header, 0 the header. */
  csvInvalid: (row: number) => `CSV invalid at row ${row}`,
  noRows: 'The file has no orders',
  tooManyRows: (max: number) => `The file cannot have more than ${max} orders`,
  tooManyColumns: (max: number) => `The file cannot have more than ${max} columns`,
  unknownColumn: (name: string) => `Unknown column: ${name}`,
  duplicateColumn: (name: string) => `Duplicate column: ${name}`,
  notFound: 'Import not found',
} as const;

const ITEM_FIELDS: readonly string[] = LINE_FIELDS.map(([api]) => api);
const STATION_COLUMNS: readonly string[] = STATION_FIELDS.map(([api]) => api);

/** Top-level columns: every create-order field but the two nested ones. */
export const IMPORT_ORDER_COLUMNS: readonly string[] = ORDER_FIELDS.map(([api]) => api).filter(
  (api) => api !== 'item' && api !== 'locker_station',
);

/** Where a header's column goes in a create-order body, or why it cannot. */
export type ImportColumn =
  | { kind: 'order'; field: string }
  | { kind: 'item'; index: number; field: string }
  | { kind: 'station'; field: string };

const ITEM_COLUMN = /^item\[(\d{1,3})\]\.([A-Za-z]+)$/;

export function importColumnOf(name: string): ImportColumn | undefined {
  if (IMPORT_ORDER_COLUMNS.includes(name)) return { kind: 'order', field: name };
  const item = ITEM_COLUMN.exec(name);
  if (item) {
    const index = Number(item[1]);
    const field = item[2]!;
    if (index < IMPORT_LIMITS.items && ITEM_FIELDS.includes(field)) return { kind: 'item', index, field };
    return undefined;
  }
  if (name.startsWith('locker_station.')) {
    const field = name.slice('locker_station.'.length);
    return STATION_COLUMNS.includes(field) ? { kind: 'station', field } : undefined;
  }
  return undefined;
}

/**
 * A row as create-order's body: each non-empty cell at its field (values stay strings: create-order
 * reads numeric strings as their numbers); item columns make `item` rows in index order.
 */
export function orderBodyOf(columns: readonly ImportColumn[], cells: readonly string[]): Record<string, unknown> {
  const body: Record<string, unknown> = {};
  const items: Record<string, string>[] = [];
  let station: Record<string, string> | undefined;
  for (const [i, column] of columns.entries()) {
    const cell = cells[i] ?? '';
    if (cell === '') continue;
    if (column.kind === 'order') body[column.field] = cell;
    else if (column.kind === 'item') (items[column.index] ??= {})[column.field] = cell;
    else (station ??= {})[column.field] = cell;
  }
  if (items.length > 0) body.item = Array.from(items, (row) => row ?? {});
  if (station) body.locker_station = station;
  return body;
}

/** get-import's query. */
export const ImportQuery = z.object({
  import_id: queryParam('import_id').meta({ description: 'The id import-orders answered.' }),
});

/** The accepted orders in parts of at most `partSize` orders and `partBytes` of JSON, in file order. */
export function importParts<T extends { order: unknown }>(accepted: readonly T[]): T[][] {
  const parts: T[][] = [];
  let part: T[] = [];
  let bytes = 0;
  for (const a of accepted) {
    const size = Buffer.byteLength(JSON.stringify(a.order));
    if (part.length > 0 && (part.length === IMPORT_LIMITS.partSize || bytes + size > IMPORT_LIMITS.partBytes)) {
      parts.push(part);
      part = [];
      bytes = 0;
    }
    part.push(a);
    bytes += size;
  }
  if (part.length > 0) parts.push(part);
  return parts;
}

const ImportError = z.strictObject({
  row: z.number().int().meta({ description: 'The row in the file: 1 is the first row under the header.' }),
  custom_tracking_num: z.string().meta({ description: 'As the row gave it; empty when it had none.' }),
  message: z.string().meta({ description: 'create-order’s message for the row.' }),
});

export const ImportResult = z
  .strictObject({
    import_id: z.string(),
    state: z.enum(['running', 'finished']).meta({
      description: '`running` while orders are being created; `finished` once every accepted row was tried.',
    }),
    rows: z.number().int().meta({ description: 'Rows under the header.' }),
    accepted: z.number().int().meta({ description: 'Rows that passed create-order’s validation.' }),
    rejected: z.number().int().meta({
      description: 'Rows refused: by validation at once, or on creation (a reference already used). All of them.',
    }),
    created: z.number().int().meta({ description: 'Orders created so far.' }),
    accepted_at: z.string().meta({ description: 'Singapore time, ISO 8601 with offset.' }),
    finished_at: z.string().optional().meta({ description: 'Present once finished.' }),
    errors: z.array(ImportError).meta({
      description: `The rejected rows, in file order for validation's then creation's; at most the first ${IMPORT_LIMITS.listedErrors}.`,
    }),
  })
  .meta({ id: 'ImportResult' });
export type ImportResult = z.output<typeof ImportResult>;

/** The answer of an import's state (the stream's, known to exist). */
export function importResultOf(state: Exclude<OrderImportState, { status: 'none' }>): ImportResult {
  return {
    import_id: state.importId,
    state: state.status,
    rows: state.rows,
    accepted: state.accepted,
    rejected: state.rejectedCount,
    created: state.created,
    accepted_at: formatSgt(state.acceptedAt),
    ...(state.finishedAt ? { finished_at: formatSgt(state.finishedAt) } : {}),
    errors: state.rejected
      .slice(0, IMPORT_LIMITS.listedErrors)
      .map((r) => ({ row: r.row, custom_tracking_num: r.reference, message: r.message })),
  };
}
