/** The specification's Item table, the item array itself, locker_type A/B and the locker_station table. */
import type { Body } from '../../test/createOrder.fixtures.ts';
import { DEL, baseItem, itemPatch, lockerStation, order, ref, run, str, to } from '../../test/createOrder.fixtures.ts';

interface Row {
  name: string;
  body: Body;
  expected: string | ((r: Body) => void);
}

const row = (rule: string, desc: string, patch: Body, expected: Row['expected']): Row => ({
  name: `${rule}: ${desc} -> ${typeof expected === 'string' ? expected : 'ok'}`,
  body: order(patch),
  expected,
});
const storedItem = (expected: Body) => (r: Body) => expect((r.item as Body[])[0]).toMatchObject(expected);
const itemLacks = (field: string) => (r: Body) => expect(Object.hasOwn((r.item as Body[])[0] ?? {}, field)).toBe(false);

function check({ body, expected }: Row): void {
  const result = run(body);
  if (typeof expected === 'string') {
    expect(result).toEqual({ ok: false, message: expected });
    return;
  }
  if (!result.ok) throw new Error(`expected ok, got "${result.message}"`);
  expected(result.order as unknown as Body);
}

const IT = (field: string, rule: string) => `Item table, ${field} "${rule}"`;
const ITEM = 'Order table, item "array of item; required"';
const many = (n: number) => ({ item: Array.from({ length: n }, baseItem) });

/** An item field's length limit: `max` characters (`ch`) are stored, one more answers `Item 1 <field> invalid`. */
const itemAtMost = (field: string, max: number, ch = 'a'): Row[] => [
  row(
    IT(field, `max ${max}`),
    `${max} chars`,
    itemPatch({ [field]: str(max, ch) }),
    storedItem({ [field]: str(max, ch) }),
  ),
  row(IT(field, `max ${max}`), `${max + 1} chars`, itemPatch({ [field]: str(max + 1, ch) }), `Item 1 ${field} invalid`),
];

const itemRows: Row[] = [
  row(ITEM, 'missing', { item: DEL }, 'item require'),
  row(ITEM, 'null', { item: null }, 'item require'),
  row(ITEM, 'empty array', { item: [] }, 'item require'),
  row(ITEM, '"  "', { item: '  ' }, 'item require'),
  row(ITEM, 'a string', { item: 'x' }, 'item invalid'),
  row(ITEM, 'an object instead of an array', { item: baseItem() }, 'item invalid'),
  row(ITEM, 'an element that is a number', { item: [1] }, 'item invalid'),
  row(ITEM, 'an element that is null', { item: [null] }, 'item invalid'),
  row(ITEM, 'an element that is an array', { item: [[baseItem()]] }, 'item invalid'),
  row(ITEM, 'second element a string', { item: [baseItem(), 'x'] }, 'item invalid'),
  row('validation contract "at most 1000 item rows"', '1000 rows', many(1000), (r) =>
    expect(r.item).toHaveLength(1000),
  ),
  row('validation contract "at most 1000 item rows"', '1001 rows', many(1001), 'item invalid'),
  // description
  row(IT('description', 'required'), 'missing', itemPatch({ description: DEL }), 'Item 1 description require'),
  row(IT('description', 'required'), '"  "', itemPatch({ description: '  ' }), 'Item 1 description require'),
  ...itemAtMost('description', 255),
  row(IT('description', 'max 255'), 'number', itemPatch({ description: 5 }), 'Item 1 description invalid'),
  row(
    IT('description', 'max 255'),
    'control character',
    itemPatch({ description: 'a\u0007' }),
    'Item 1 description invalid',
  ),
  // unitPrice, quantity, weight, totalValue
  row(IT('unitPrice', 'required'), 'missing', itemPatch({ unitPrice: DEL }), 'Item 1 unitPrice require'),
  row(IT('unitPrice', '>= 0'), '0', itemPatch({ unitPrice: 0 }), storedItem({ unitPrice: 0 })),
  row(IT('unitPrice', '>= 0'), '-0.01', itemPatch({ unitPrice: -0.01 }), 'Item 1 unitPrice invalid'),
  row(IT('unitPrice', '>= 0'), '"12.5"', itemPatch({ unitPrice: '12.5' }), storedItem({ unitPrice: 12.5 })),
  row(IT('unitPrice', '>= 0'), '"x"', itemPatch({ unitPrice: 'x' }), 'Item 1 unitPrice invalid'),
  row(
    IT('unitPrice', '>= 0'),
    '400-digit string (not finite)',
    itemPatch({ unitPrice: `1${str(400, '0')}` }),
    'Item 1 unitPrice invalid',
  ),
  row(IT('quantity', 'required'), 'missing', itemPatch({ quantity: DEL }), 'Item 1 quantity require'),
  row(IT('quantity', '>= 0'), '-1', itemPatch({ quantity: -1 }), 'Item 1 quantity invalid'),
  row(IT('quantity', '>= 0'), '"2"', itemPatch({ quantity: '2' }), storedItem({ quantity: 2 })),
  row(IT('quantity', '>= 0'), 'true', itemPatch({ quantity: true }), 'Item 1 quantity invalid'),
  row(IT('weight', 'required'), 'null', itemPatch({ weight: null }), 'Item 1 weight require'),
  row(IT('weight', '>= 0'), '"abc"', itemPatch({ weight: 'abc' }), 'Item 1 weight invalid'),
  row(IT('weight', '>= 0'), '1e6', itemPatch({ weight: 1e6 }), storedItem({ weight: 1e6 })),
  row(IT('totalValue', 'required'), 'missing', itemPatch({ totalValue: DEL }), 'Item 1 totalValue require'),
  row(IT('totalValue', '>= 0'), '-1', itemPatch({ totalValue: -1 }), 'Item 1 totalValue invalid'),
  // currency
  row(IT('currency', 'required'), 'missing', itemPatch({ currency: DEL }), 'Item 1 currency require'),
  row(IT('currency', 'length 3'), '"sgd"', itemPatch({ currency: 'sgd' }), 'Item 1 currency invalid'),
  row(IT('currency', 'length 3'), '"SGDX"', itemPatch({ currency: 'SGDX' }), 'Item 1 currency invalid'),
  // optional fields
  row(
    IT('countryOfOrigin', 'length 2'),
    '"CN"',
    itemPatch({ countryOfOrigin: 'CN' }),
    storedItem({ countryOfOrigin: 'CN' }),
  ),
  row(
    IT('countryOfOrigin', 'length 2'),
    '"CHN"',
    itemPatch({ countryOfOrigin: 'CHN' }),
    'Item 1 countryOfOrigin invalid',
  ),
  row(
    IT('countryOfOrigin', 'length 2'),
    '"cn"',
    itemPatch({ countryOfOrigin: 'cn' }),
    'Item 1 countryOfOrigin invalid',
  ),
  row(
    IT('countryOfOrigin', 'optional'),
    '"" not stored',
    itemPatch({ countryOfOrigin: '' }),
    itemLacks('countryOfOrigin'),
  ),
  ...itemAtMost('itemHSCode', 255, '1'),
  ...itemAtMost('productURL', 500),
  row(IT('productURL', 'max 500'), 'number', itemPatch({ productURL: 1 }), 'Item 1 productURL invalid'),
  row(
    'decisions "item rows: Item <row> <field>, rows counted from 1"',
    'second row bad',
    { item: [baseItem(), { ...baseItem(), quantity: -1 }] },
    'Item 2 quantity invalid',
  ),
];

describe('validateCreateOrder: item', () => {
  test.each(itemRows)('$name', check);
});

const LT = (rule: string) => `Order table, locker_type "${rule}"`;
const LS = (field: string, rule: string) => `locker_station table, ${field} "${rule}"`;
const lockerA = (patch: Body = {}) => ({ locker_type: 'A', locker_station: lockerStation(patch) });
const stationOf = (r: Body) => r.locker_station as Body;

const lockerRows: Row[] = [
  row(LT('A = address is already a locker address'), 'A with a full locker_station: stored', lockerA(), (r) =>
    expect(r.locker_station).toEqual(lockerStation()),
  ),
  row(
    'Order table, locker_station "required when locker_type = A"',
    'A, missing',
    { locker_type: 'A' },
    'locker_station require',
  ),
  row(
    'Order table, locker_station "required when locker_type = A"',
    'A, null',
    { locker_type: 'A', locker_station: null },
    'locker_station require',
  ),
  row(
    'decisions "wrong type: <field> invalid"',
    'A, a string',
    { locker_type: 'A', locker_station: 'SGL0001' },
    'locker_station invalid',
  ),
  row(
    'decisions "wrong type: <field> invalid"',
    'A, a number',
    { locker_type: 'A', locker_station: 1 },
    'locker_station invalid',
  ),
  row(
    'decisions "wrong type: <field> invalid"',
    'A, true',
    { locker_type: 'A', locker_station: true },
    'locker_station invalid',
  ),
  row(
    'decisions "wrong type: <field> invalid"',
    'A, an array',
    { locker_type: 'A', locker_station: [lockerStation()] },
    'locker_station invalid',
  ),
  row(
    'decisions "wrong type: <field> invalid"',
    'A, an empty array',
    { locker_type: 'A', locker_station: [] },
    'locker_station invalid',
  ),
  row(
    'Order table, locker_station "required when locker_type = A"',
    'A, an empty object: its first field',
    { locker_type: 'A', locker_station: {} },
    'locker_station.zipcode require',
  ),
  row(
    'Order table, locker_station "required when locker_type = A"',
    'no locker_type: ignored, not stored',
    { locker_station: lockerStation() },
    (r) => expect(Object.hasOwn(r, 'locker_station')).toBe(false),
  ),
  row(
    'Order table, locker_station "required when locker_type = A"',
    'no locker_type, junk: ignored',
    { locker_station: 'junk' },
    (r) => expect(Object.hasOwn(r, 'locker_station')).toBe(false),
  ),
  row(
    LT('B = normal address to be converted to the nearest locker'),
    'B with locker_station: ignored',
    { locker_type: 'B', locker_station: lockerStation() },
    (r) => expect(Object.hasOwn(r, 'locker_station')).toBe(false),
  ),
  row(
    'decisions "locker_type B ... none within 5 km: locker_type invalid"',
    'B, SG postal code without a location',
    { locker_type: 'B', postal_code: '12345' },
    'locker_type invalid',
  ),
  row(
    'decisions "locker_type B ... none within 5 km: locker_type invalid" (stations are in Singapore)',
    'B to MY',
    { ...to.MY, locker_type: 'B' },
    'locker_type invalid',
  ),
  // locker_station fields
  ...(['zipcode', 'station_name', 'station_address', 'address_detail', 'distance', 'station_code'] as const).flatMap(
    (f) => [
      row(LS(f, 'all fields required'), 'missing', lockerA({ [f]: DEL }), `locker_station.${f} require`),
      row(LS(f, 'all fields required'), '"  "', lockerA({ [f]: '  ' }), `locker_station.${f} require`),
      row(LS(f, 'all fields required'), 'null', lockerA({ [f]: null }), `locker_station.${f} require`),
    ],
  ),
  ...(
    [
      ['zipcode', 16],
      ['station_name', 64],
      ['station_address', 255],
      ['address_detail', 255],
    ] as const
  ).flatMap(([f, max]) => [
    row(LS(f, `max ${max}`), `${max} chars`, lockerA({ [f]: str(max, '1') }), (r) =>
      expect(stationOf(r)[f]).toBe(str(max, '1')),
    ),
    row(LS(f, `max ${max}`), `${max + 1} chars`, lockerA({ [f]: str(max + 1, '1') }), `locker_station.${f} invalid`),
    row(LS(f, `max ${max}`), 'number', lockerA({ [f]: 1 }), `locker_station.${f} invalid`),
    row(LS(f, `max ${max}`), 'control character', lockerA({ [f]: '1\u0000' }), `locker_station.${f} invalid`),
  ]),
  row(LS('distance', 'no bound given'), '0', lockerA({ distance: 0 }), (r) => expect(stationOf(r).distance).toBe(0)),
  row(LS('distance', 'no bound given'), '1e9', lockerA({ distance: 1e9 }), (r) =>
    expect(stationOf(r).distance).toBe(1e9),
  ),
  row(LS('distance', 'no bound given'), '"12.5" as its number', lockerA({ distance: '12.5' }), (r) =>
    expect(stationOf(r).distance).toBe(12.5),
  ),
  row(LS('distance', 'no bound given'), '-1', lockerA({ distance: -1 }), 'locker_station.distance invalid'),
  row(LS('distance', 'no bound given'), '"far"', lockerA({ distance: 'far' }), 'locker_station.distance invalid'),
  row(
    LS('station_code', 'max 10'),
    '11 chars',
    lockerA({ station_code: str(11, 'S') }),
    'locker_station.station_code invalid',
  ),
  row(
    'decisions "locker_type A: locker_station.station_code must name a known station"',
    '"NOPE"',
    lockerA({ station_code: 'NOPE' }),
    'locker_station.station_code invalid',
  ),
  row(
    'decisions "locker_type A: locker_station.station_code must name a known station"',
    'number',
    lockerA({ station_code: 1 }),
    'locker_station.station_code invalid',
  ),
  row(
    'decisions "nested locker fields" in table order',
    'zipcode missing and station_code unknown',
    lockerA({ zipcode: DEL, station_code: 'NOPE' }),
    'locker_station.zipcode require',
  ),
];

describe('validateCreateOrder: locker_type and locker_station', () => {
  test.each(lockerRows)('$name', check);

  test('decisions "locker_type B: the order is assigned the nearest station to postal_code": 048618 -> assignedStation within 5 km', () => {
    const result = run(order({ locker_type: 'B' }));
    if (!result.ok) throw new Error(result.message);
    const nearest = ref.stationsNear('048618', 5000, 1)[0];
    expect(result.assignedStation).toEqual(nearest);
    expect(result.assignedStation?.distance).toBeLessThanOrEqual(5000);
    expect(result.order.locker_type).toBe('B');
  });

  test('validation contract "assignedStation only for locker_type B": A and no locker_type -> none', () => {
    for (const body of [order(lockerA()), order()]) {
      const result = run(body);
      expect(result.ok && Object.hasOwn(result, 'assignedStation')).toBe(false);
    }
  });
});
