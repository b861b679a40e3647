/**
 * validateCreateOrder: ordering of failures, unknown keys, the result (order, routing, service
 * type). Field-by-field rows: createOrder.fields.unit.spec.ts and createOrder.nested.unit.spec.ts;
 * properties: createOrder.property.unit.spec.ts.
 */
import type { Body } from '../../test/createOrder.fixtures.ts';
import {
  DEL,
  baseItem,
  demo,
  itemPatch,
  lockerStation,
  order,
  pickupOrder,
  run,
  str,
  to,
} from '../../test/createOrder.fixtures.ts';
import { validateCreateOrder } from './createOrder.ts';
import { ref } from '../../test/createOrder.fixtures.ts';

const ORDER =
  'decisions "Fields are checked in the order of the specification\'s Order table, then item rows in order; the first failure is the message"';

describe('validateCreateOrder: first failure in table order', () => {
  test.each([
    ['empty body', {}, 'custom_tracking_num require'],
    [
      'custom_tracking_num "a b" and recipient_name missing',
      order({ custom_tracking_num: 'a b', recipient_name: DEL }),
      'custom_tracking_num invalid',
    ],
    [
      'recipient_phone "12a" and client_size "x"',
      order({ recipient_phone: '12a', client_size: 'x' }),
      'recipient_phone invalid',
    ],
    [
      'client_size "x" and client_weight missing',
      order({ client_size: 'x', client_weight: DEL }),
      'Client Size invalid',
    ],
    [
      'recipient_country "GB" and everything after it missing',
      { custom_tracking_num: 'R1', recipient_name: 'N', recipient_country: 'GB' },
      'recipient_country(GB) not allow',
    ],
    ['item "x" and postal_code missing', order({ item: 'x', postal_code: DEL }), 'item invalid'],
    [
      'item row 1 bad and recipient_email bad (item rows after top-level fields)',
      order({ ...itemPatch({ unitPrice: -1 }), recipient_email: 'bad' }),
      'recipient_email invalid',
    ],
    [
      'item row 1 bad and locker_type "C" (item rows after locker fields)',
      order({ ...itemPatch({ unitPrice: -1 }), locker_type: 'C' }),
      'locker_type invalid',
    ],
    [
      'item row 1 bad and locker_station.zipcode missing',
      order({ ...itemPatch({ unitPrice: -1 }), locker_type: 'A', locker_station: lockerStation({ zipcode: DEL }) }),
      'locker_station.zipcode require',
    ],
    [
      'rows 1 and 2 bad',
      order({
        item: [
          { ...baseItem(), weight: -1 },
          { ...baseItem(), description: DEL },
        ],
      }),
      'Item 1 weight invalid',
    ],
    [
      'row 1: description missing and unitPrice bad',
      order(itemPatch({ description: DEL, unitPrice: 'x' })),
      'Item 1 description require',
    ],
    ['cash bad and gst_paid bad', order({ cash: -1, cash_currency: 'SGD', gst_paid: 'x' }), 'cash invalid'],
    [
      'US: recipient_state missing and service_code missing',
      order({ ...to.US, recipient_state: DEL, service_code: DEL }),
      'recipient_state require',
    ],
    [
      'PUD: sender_name missing and service_type not allowed to JP',
      order({ ...to.JP, ...pickupOrder, sender_name: DEL }),
      'sender_name require',
    ],
  ] as [string, Body, string][])(`${ORDER}: %s -> %s`, (_name, body, message) => {
    expect(run(body)).toEqual({ ok: false, message });
  });
});

const UNKNOWN = 'decisions "Unknown fields are ignored" (never copied: $ keys and __proto__ stay out)';

describe('validateCreateOrder: unknown keys', () => {
  const hostile = () =>
    JSON.parse(
      JSON.stringify(order()).replace(
        /^\{/,
        '{"__proto__":{"polluted":1,"custom_tracking_num":"X"},"$where":"1","constructor":{"prototype":{"p":1}},"extra":1,"item_count":5,',
      ),
    ) as Body;

  test(`${UNKNOWN}: top-level __proto__, $where, constructor, extra -> ok, result holds only known fields`, () => {
    const body = hostile();
    expect(Object.hasOwn(body, '__proto__')).toBe(true);
    const result = run(body);
    if (!result.ok) throw new Error(result.message);
    const keys = Object.keys(result.order);
    expect(keys).toEqual(Object.keys(order()));
    expect(Object.getPrototypeOf(result.order)).toBe(Object.prototype);
    expect(Object.hasOwn(result.order, '__proto__')).toBe(false);
    expect(({} as Body).polluted).toBeUndefined();
  });

  test(`${UNKNOWN}: in item rows and locker_station`, () => {
    const row = JSON.parse(`{"__proto__":{"x":1},"$set":1,${JSON.stringify(baseItem()).slice(1)}`) as Body;
    const station = JSON.parse(`{"__proto__":{"x":1},"$gt":1,${JSON.stringify(lockerStation()).slice(1)}`) as Body;
    const result = run(order({ item: [row], locker_type: 'A', locker_station: station }));
    if (!result.ok) throw new Error(result.message);
    expect(Object.keys(result.order.item[0] ?? {})).toEqual(Object.keys(baseItem()));
    expect(Object.keys(result.order.locker_station ?? {})).toEqual(Object.keys(lockerStation()));
  });

  test(`${UNKNOWN}: a known field inherited through the prototype is not read -> custom_tracking_num require`, () => {
    const body = Object.assign(
      Object.create({ custom_tracking_num: 'INHERITED' }) as Body,
      order({ custom_tracking_num: DEL }),
    );
    expect(run(body)).toEqual({ ok: false, message: 'custom_tracking_num require' });
  });
});

describe('validateCreateOrder: the result', () => {
  test('Order table: a complete valid order is stored field for field (numbers as numbers, strings as sent)', () => {
    const body = order({
      recipient_city: ' Singapore ',
      recipient_email: 'tan@example.com',
      sender_name: 'Shop',
      sender_phone: '85212345678',
      sender_address: 'Road 1',
      sender_postal_code: '999077',
      sender_city: 'HK',
      sender_email: 'shop@example.com',
      service_type: 'LMD',
      service_code: 'SGN',
      instruction: 'Ring',
      cash: '12.50',
      cash_currency: 'SGD',
      supplier_name: 'Sup',
      supplier_gstn: 'G1',
      total_gst_amount: 1.5,
      gst_currency: 'SGD',
      gst_paid: 'Y',
      incoterm_type: 'DDP',
      client_size: ' 10 , 30 , 20 ',
      client_weight: '2',
      item: [{ ...baseItem(), countryOfOrigin: 'CN', itemHSCode: '6109.10', productURL: 'https://example.com/t' }],
    });
    const result = run(body);
    expect(result).toEqual({
      ok: true,
      carrier: 'LMX',
      serviceType: 'LMD',
      order: { ...body, cash: 12.5, client_size: '30,20,10', client_weight: 2 },
    });
  });

  const ROUTING =
    'decisions "Routing: PUD to LMX-PU; SLF to PSX; otherwise SG and MY to LMX, US to USX, every other country to GLX"';
  test.each([
    ['SG, no service_type', {}, 'LMX', 'LMD'],
    ['MY, no service_type', to.MY, 'LMX', 'LMD'],
    ['US, no service_type', to.US, 'USX', 'LMD'],
    ['JP, no service_type', to.JP, 'GLX', 'LMD'],
    ['HK, no service_type', to.HK, 'GLX', 'LMD'],
    ['AU, LMD', { ...to.AU, service_type: 'LMD' }, 'GLX', 'LMD'],
    ['SG, PUD', pickupOrder, 'LMX-PU', 'PUD'],
    ['MY, PUD', { ...to.MY, ...pickupOrder }, 'LMX-PU', 'PUD'],
    ['SG, SLF', { service_type: 'SLF' }, 'PSX', 'SLF'],
    ['US, SLF', { ...to.US, service_type: 'SLF' }, 'PSX', 'SLF'],
  ] as [string, Body, string, string][])(`${ROUTING}: %s -> carrier %s`, (_name, patch, carrier, serviceType) => {
    const result = run(order(patch));
    if (!result.ok) throw new Error(result.message);
    expect(result.carrier).toBe(carrier);
    expect(result.serviceType).toBe(serviceType);
  });

  test('decisions "No service type: last mile only, as LMD": serviceType is the default, service_type not stored', () => {
    const result = run(order());
    if (!result.ok) throw new Error(result.message);
    expect(result.serviceType).toBe(ref.defaultServiceType);
    expect(Object.hasOwn(result.order, 'service_type')).toBe(false);
  });

  test('Order table, client_weight "unit follows account settings": no conversion for a gram account', () => {
    const result = validateCreateOrder(order({ client_weight: 1500 }), {
      account: { ...demo, weightUnit: 'g' },
      ref,
    });
    expect(result.ok && result.order.client_weight).toBe(1500);
  });

  test('validation contract "body may contain anything": 10 000-char strings, nested objects, huge numbers -> a message, no throw', () => {
    const junk: Body[] = [
      order({ recipient_name: str(10_000) }),
      order({ recipient_name: { nested: { deeper: [1, 2, 3] } } }),
      order({ client_weight: 1e308, declared_value: -1e308 }),
      order({
        item: [{ description: { a: 1 }, unitPrice: [], quantity: {}, weight: 'x', currency: 1, totalValue: null }],
      }),
      order({ custom_tracking_num: str(10_000, '😀') }),
    ];
    for (const body of junk) expect(run(body).ok).toBe(false);
  });
});
