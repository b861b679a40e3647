import { IMPORT_LIMITS, importColumnOf, importParts, orderBodyOf } from './orderImport.ts';
import type { ImportColumn } from './orderImport.ts';

describe('import-orders columns', () => {
  test('a header cell names a create-order field, an item row’s field or a locker station’s field', () => {
    expect(importColumnOf('recipient_name')).toEqual({ kind: 'order', field: 'recipient_name' });
    expect(importColumnOf('item[3].unitPrice')).toEqual({ kind: 'item', index: 3, field: 'unitPrice' });
    expect(importColumnOf('locker_station.station_code')).toEqual({ kind: 'station', field: 'station_code' });
    for (const name of ['item', 'locker_station', 'item[50].description', 'item[0].colour', 'colour', '__proto__'])
      expect({ name, column: importColumnOf(name) }).toEqual({ name, column: undefined });
  });

  test('a row becomes create-order’s body: empty cells are fields not sent, item rows in index order', () => {
    const columns = ['custom_tracking_num', 'item[1].description', 'item[0].description', 'recipient_email'].map((c) =>
      importColumnOf(c)!,
    ) satisfies ImportColumn[];
    expect(orderBodyOf(columns, ['R1', 'Pen', 'Book', ''])).toEqual({
      custom_tracking_num: 'R1',
      item: [{ description: 'Book' }, { description: 'Pen' }],
    });
    expect(orderBodyOf(columns, ['R2', 'Pen', '', ''])).toEqual({
      custom_tracking_num: 'R2',
      item: [{}, { description: 'Pen' }],
    });
  });
});

describe('import parts', () => {
  const orders = (n: number, text: string) => Array.from({ length: n }, (_, row) => ({ row, order: { text } }));

  test('at most partSize orders a part, in file order', () => {
    const parts = importParts(orders(IMPORT_LIMITS.partSize * 2 + 1, 'x'));
    expect(parts.map((p) => p.length)).toEqual([IMPORT_LIMITS.partSize, IMPORT_LIMITS.partSize, 1]);
    expect(parts.flat().map((a) => a.row)).toEqual([...Array(IMPORT_LIMITS.partSize * 2 + 1).keys()]);
  });

  test('at most partBytes of JSON a part, counted in UTF-8 bytes: large orders make more, smaller parts', () => {
    // 10,000 characters of three bytes each: 30 KB an order, so 17 of them fill a part of 512 KiB.
    const parts = importParts(orders(40, '東'.repeat(10_000)));
    for (const part of parts)
      expect(Buffer.byteLength(JSON.stringify(part.map((a) => a.order)))).toBeLessThanOrEqual(
        IMPORT_LIMITS.partBytes + 2 * part.length,
      );
    expect(parts.map((p) => p.length)).toEqual([17, 17, 6]);
  });

  test('an order larger than partBytes is a part alone', () => {
    expect(importParts(orders(2, 'x'.repeat(IMPORT_LIMITS.partBytes + 1))).map((p) => p.length)).toEqual([1, 1]);
  });
});
