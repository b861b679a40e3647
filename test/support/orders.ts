/** Valid create-order bodies for the demo reference data, and CSV files of them. */
import { stringify } from 'csv-stringify/sync';
import type { clientB } from './client.ts';

let counter = 0;
export const uniqueRef = (prefix = 'REF') => `${prefix}-${process.pid}-${Date.now().toString(36)}-${++counter}`;

export function orderBody(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    custom_tracking_num: uniqueRef(),
    recipient_name: 'Tan Ah Kow',
    recipient_country: 'SG',
    recipient_phone: '6591234567',
    recipient_address: '1 Raffles Place, #20-01',
    sender_country: 'SG',
    client_size: '10,30,20',
    client_weight: 1.25,
    declared_value: 49.9,
    declared_value_currency: 'SGD',
    item: [
      { description: 'Paperback book', unitPrice: 24.95, quantity: 2, weight: 0.6, currency: 'SGD', totalValue: 49.9 },
    ],
    postal_code: '048616',
    ...overrides,
  };
}

/**
 * A CSV file of create-order bodies as import-orders reads one: a column per field any body has,
 * `item[N].field` for item rows, `locker_station.field` for the station; empty cells for the rest.
 */
export function csvOf(bodies: readonly Record<string, unknown>[]): string {
  const rows = bodies.map((body) => {
    const flat: Record<string, string> = {};
    for (const [key, value] of Object.entries(body)) {
      if (key === 'item' && Array.isArray(value))
        value.forEach((item: Record<string, unknown>, i) => {
          for (const [field, v] of Object.entries(item)) flat[`item[${i}].${field}`] = String(v);
        });
      else if (key === 'locker_station' && value && typeof value === 'object')
        for (const [field, v] of Object.entries(value)) flat[`locker_station.${field}`] = String(v);
      else flat[key] = String(value);
    }
    return flat;
  });
  const columns = [...new Set(rows.flatMap((r) => Object.keys(r)))];
  return stringify(rows, { header: true, columns, record_delimiter: 'windows' });
}

/** Ten changes that each make create-order refuse a body, each with a message of its own. */
export const REFUSED_FIELDS: readonly Record<string, unknown>[] = [
  { recipient_phone: 'abc' },
  { recipient_country: 'XX' },
  { client_size: '10,30' },
  { client_weight: 'heavy' },
  { declared_value_currency: 'sgd' },
  { recipient_name: '' },
  { sender_country: 'Singapore' },
  { recipient_email: 'not-an-email' },
  { gst_paid: 'maybe' },
  { postal_code: '12' },
];

/** `count` create-order bodies in which row `rowOf(i)` (counted from 1) carries the i-th of REFUSED_FIELDS; the bodies and those rows. */
export function bodiesWithRefusedRows(count: number, rowOf: (i: number) => number) {
  const bodies = Array.from({ length: count }, () => orderBody());
  const badRows = REFUSED_FIELDS.map((_, i) => rowOf(i));
  badRows.forEach((row, i) => Object.assign(bodies[row - 1]!, REFUSED_FIELDS[i]));
  return { bodies, badRows };
}

/**
 * The errors an import of `bodies` reports for `badRows`: create-order is the judge, each row's
 * body refused by it alone with the message it gives.
 */
export async function refusalsOf(
  client: ReturnType<typeof clientB>,
  bodies: Record<string, unknown>[],
  badRows: number[],
) {
  const expected = [];
  for (const row of badRows) {
    const single = await client.post('order/create-order', bodies[row - 1]);
    expect(single.body.code).toBe(1);
    expected.push({ row, custom_tracking_num: bodies[row - 1]!.custom_tracking_num, message: single.body.message });
  }
  return expected;
}

/** What makes an order the pickup variant of LMX (LMX-PU): service type PUD and the sender's address to pick it up at. */
export const PICKUP_ORDER: Readonly<Record<string, string>> = {
  service_type: 'PUD',
  sender_name: 'Shop',
  sender_phone: '6561234567',
  sender_address: '2 Market St',
  sender_postal_code: '048948',
};
