/**
 * CSV import of interface B (docs/bulk.md): import-orders takes the file, get-import re-reads the
 * import. operations.ts adds the answers every signed operation shares.
 */
import { z } from 'zod';
import { B } from '../messages.ts';
import { IMPORT_LIMITS, IMPORT_ORDER_COLUMNS, ImportMessages, ImportQuery, ImportResult } from '../orderImport.ts';
import { business, failB, okB, requiredB, signedB } from './operation.ts';
import type { Operation } from './operation.ts';

export const IMPORT_SAMPLE = {
  importId: '0b6f3c1e-8a2d-4f5b-9c7e-1d3a5b7c9e2f',
  unknownImportId: '00000000-0000-4000-8000-000000000000',
  time: '2026-11-22T14:05:09+08:00',
} as const;

/** A file of two rows: the first creates an order, the second has a recipient_country no account may ship to. */
const SAMPLE_CSV =
  'custom_tracking_num,recipient_name,recipient_country,recipient_phone,recipient_address,postal_code,sender_country,' +
  'client_size,client_weight,declared_value,declared_value_currency,item[0].description,item[0].unitPrice,' +
  'item[0].quantity,item[0].weight,item[0].currency,item[0].totalValue\r\n' +
  'ORDER-2001,Tan Ah Kow,SG,6591234567,1 Raffles Place,048616,SG,"10,30,20",1.2,49.9,SGD,Book,24.95,2,0.6,SGD,49.9\r\n' +
  'ORDER-2002,Lim Mei Ling,XX,6598765432,2 Orchard Road,238801,SG,"10,30,20",1.2,49.9,SGD,Book,24.95,2,0.6,SGD,49.9\r\n';

const running = {
  import_id: IMPORT_SAMPLE.importId,
  state: 'running',
  rows: 2,
  accepted: 1,
  rejected: 1,
  created: 0,
  accepted_at: IMPORT_SAMPLE.time,
  errors: [{ row: 2, custom_tracking_num: 'ORDER-2002', message: B.invalid('recipient_country') }],
};

const columns =
  `The header names create-order's fields: ${IMPORT_ORDER_COLUMNS.map((c) => `\`${c}\``).join(', ')}; ` +
  `item rows as \`item[0].description\`, \`item[0].unitPrice\`, … (up to \`item[${IMPORT_LIMITS.items - 1}]\`), and ` +
  'the locker station as `locker_station.station_code`, …. Cells are read as create-order reads a body’s values; an ' +
  'empty cell is a field not sent.';

export const IMPORT_OPERATIONS: Operation[] = [
  signedB({
    id: 'importOrders',
    method: 'post',
    path: '/v1/openapi/order/import-orders',
    summary: 'Import orders from a CSV file',
    description:
      `A CSV file (\`text/csv\`, UTF-8, RFC 4180) of up to ${IMPORT_LIMITS.rows} orders, one per row under a header ` +
      'row. Every row is validated exactly as create-order validates a body, and a reference repeated in the file is ' +
      'refused after its first row. The answer comes once the accepted rows are recorded, with the import’s id; the ' +
      'orders are then created in the background, each once, even across a restart. get-import tells how far it is. ' +
      'Send an Idempotency-Key to make a resent file the same import. ' +
      columns,
    consumes: 'text/csv',
    body: z.string().meta({ description: 'The CSV file.' }),
    data: ImportResult,
    errors: [
      business(ImportMessages.notCsv, 'the body was sent as JSON, not as text/csv'),
      business(ImportMessages.notUtf8, 'the file is not valid UTF-8'),
      business(
        ImportMessages.csvInvalid(0),
        'the file is not CSV: an unclosed quote, or a row wider or narrower than the header; the row is given (0: the header)',
      ),
      business(ImportMessages.unknownColumn('<name>'), 'a header cell names no create-order field'),
      business(ImportMessages.duplicateColumn('<name>'), 'a header cell names a field twice'),
      business(
        ImportMessages.tooManyColumns(IMPORT_LIMITS.columns),
        `the header has more than ${IMPORT_LIMITS.columns} columns`,
      ),
      business(ImportMessages.noRows, 'the file has a header and no rows'),
      business(ImportMessages.tooManyRows(IMPORT_LIMITS.rows), `the file has more than ${IMPORT_LIMITS.rows} rows`),
    ],
    examples: [
      { name: 'accepted', summary: 'One row accepted, one refused', body: SAMPLE_CSV, response: okB(running) },
      {
        name: 'unknownColumn',
        summary: 'A header cell that is no field',
        body: 'custom_tracking_num,colour\r\nORDER-2003,red\r\n',
        response: failB(ImportMessages.unknownColumn('colour')),
      },
      {
        name: 'noRows',
        summary: 'A header alone',
        body: 'custom_tracking_num,recipient_name\r\n',
        response: failB(ImportMessages.noRows),
      },
    ],
  }),
  signedB({
    id: 'getImport',
    method: 'get',
    path: '/v1/openapi/order/get-import',
    summary: 'How far an import is',
    description:
      'The import’s state, its counts, and its rejected rows with create-order’s message each: at once those ' +
      'validation refused, then, as the orders are created, those whose reference another order took meanwhile. ' +
      'Another account’s import reads as unknown.',
    query: ImportQuery,
    data: ImportResult,
    errors: [
      ...requiredB('import_id', 'is longer than 64'),
      business(ImportMessages.notFound, 'no import of the account has this id'),
    ],
    examples: [
      {
        name: 'found',
        summary: 'A finished import',
        query: { import_id: IMPORT_SAMPLE.importId },
        response: okB({ ...running, state: 'finished', created: 1, finished_at: IMPORT_SAMPLE.time }),
      },
      {
        name: 'unknown',
        summary: 'No such import',
        query: { import_id: IMPORT_SAMPLE.unknownImportId },
        response: failB(ImportMessages.notFound),
      },
    ],
  }),
];
