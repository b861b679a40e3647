import { importColumnOf, orderBodyOf } from './orderImport.ts';
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
