/**
 * Test support (not production code): generators of create-order bodies (valid-ish, mutated and
 * junk) and an independent checker of accepted orders, written from the spec tables, not from the
 * validator. Used by the validator's property test and by the HTTP property test.
 */
import fc from 'fast-check';
import type { Account } from '@parcel-logistics/reference-data';
import type { CreateOrderValidation } from '../src/validation/createOrder.ts';
import type { Body } from './createOrder.fixtures.ts';

// ---------- independent checker ----------

type Pred = (v: unknown) => boolean;
const chars = (s: string) => Array.from(s);
const control = (ch: string, multiline: boolean) => {
  const c = ch.codePointAt(0) ?? 0;
  return c === 0x7f || (c < 0x20 && !(multiline && [9, 10, 13].includes(c)));
};
const text =
  (max: number, multiline = false, min = 1): Pred =>
  (v) =>
    typeof v === 'string' &&
    v.trim() !== '' &&
    v.isWellFormed() &&
    chars(v).length >= min &&
    chars(v).length <= max &&
    !chars(v).some((ch) => control(ch, multiline));
const matches =
  (re: RegExp, max: number): Pred =>
  (v) =>
    text(max)(v) && re.test(v as string);
const range =
  (min: number, max = Infinity): Pred =>
  (v) =>
    typeof v === 'number' && Number.isFinite(v) && v >= min && v <= max;
const upper = (n: number) => matches(new RegExp(`^[A-Z]{${n}}$`), n);
const emailOk = (v: unknown) =>
  text(320)(v) &&
  (v as string).split('@').length === 2 &&
  !/\s/.test(v as string) &&
  !(v as string).startsWith('@') &&
  !(v as string).endsWith('@');

const ALLOWED = ['SG', 'MY', 'HK', 'JP', 'KR', 'US', 'AU', 'TH', 'PH', 'VN', 'ID', 'TW'];
const TOP: Record<string, Pred> = {
  custom_tracking_num: matches(/^[A-Za-z0-9_-]+$/, 32),
  recipient_name: text(64),
  recipient_country: (v) => ALLOWED.includes(v as string),
  recipient_phone: matches(/^[0-9]+$/, 24),
  recipient_address: text(512, true),
  sender_country: upper(2),
  client_size: (v) => {
    if (typeof v !== 'string' || v.length > 30) return false;
    const parts = v.split(',');
    const nums = parts.map(Number);
    return (
      parts.length === 3 && parts.every((p) => /^\d+(\.\d+)?$/.test(p)) && nums[0]! >= nums[1]! && nums[1]! >= nums[2]!
    );
  },
  client_weight: range(0, 9999),
  declared_value: range(0, 9999.99),
  declared_value_currency: upper(3),
  item: (v) => Array.isArray(v) && v.length >= 1 && v.length <= 1000,
  postal_code: matches(/^[0-9]+$/, 10),
  recipient_state: text(60),
  recipient_city: text(64),
  recipient_email: emailOk,
  sender_name: text(64),
  sender_phone: matches(/^[0-9]+$/, 24),
  sender_address: text(512, true),
  sender_postal_code: text(10, false, 3),
  sender_city: text(64),
  sender_email: emailOk,
  service_type: (v) => ['LMD', 'PUD', 'SLF'].includes(v as string),
  service_code: (v) => ['USG', 'USE', 'USP', 'SGS', 'SGN', 'SGL'].includes(v as string),
  instruction: text(1024, true),
  cash: range(0, 9999.99),
  cash_currency: upper(3),
  supplier_name: text(64),
  supplier_gstn: text(64),
  total_gst_amount: range(0, 9999.99),
  gst_currency: upper(3),
  gst_paid: (v) => v === 'Y' || v === 'N',
  incoterm_type: (v) => v === 'DDU' || v === 'DDP',
  locker_type: (v) => v === 'A' || v === 'B',
  locker_station: (v) => typeof v === 'object' && v !== null,
};
const ITEM: Record<string, Pred> = {
  description: text(255),
  unitPrice: range(0),
  quantity: range(0),
  weight: range(0),
  currency: upper(3),
  totalValue: range(0),
  countryOfOrigin: upper(2),
  itemHSCode: text(255),
  productURL: text(500),
};
const LOCKER: Record<string, Pred> = {
  zipcode: text(16),
  station_name: text(64),
  station_address: text(255),
  address_detail: text(255),
  distance: range(0),
  station_code: text(10),
};
const REQUIRED_TOP = Object.keys(TOP).slice(0, 11);
const REQUIRED_ITEM = Object.keys(ITEM).slice(0, 6);
const POSTAL: Record<string, [number, number]> = { SG: [5, 6], MY: [4, 5], KR: [4, 5], JP: [5, 7] };
const SENT_AS_NUMBER = new Set([
  'client_weight',
  'declared_value',
  'cash',
  'total_gst_amount',
  'unitPrice',
  'quantity',
  'weight',
  'totalValue',
  'distance',
]);

/** Every stored field is known, valid, and equal to what was sent (numbers: its number, -0 as 0 as checks.ts stores it). */
function checkObject(
  stored: Body,
  sent: Body,
  rules: Record<string, Pred>,
  required: string[],
  where: string,
  skip: string[] = [],
): void {
  for (const [k, v] of Object.entries(stored)) {
    if (!rules[k]) throw new Error(`${where}: unknown key ${k} stored`);
    if (!rules[k](v)) throw new Error(`${where}: ${k} = ${JSON.stringify(v)} breaks its rule`);
    if (!skip.includes(k)) expect(v).toEqual(SENT_AS_NUMBER.has(k) ? Number(sent[k]) + 0 : sent[k]);
  }
  for (const k of required) if (!Object.hasOwn(stored, k)) throw new Error(`${where}: required ${k} missing`);
  expect(Object.getPrototypeOf(stored)).toBe(Object.prototype);
}

export function checkAccepted(
  body: Body,
  account: Account,
  result: Extract<CreateOrderValidation, { ok: true }>,
): void {
  const o = result.order as unknown as Body;
  const has = (k: string) => Object.hasOwn(o, k);
  checkObject(o, body, TOP, REQUIRED_TOP, 'order', ['client_size', 'postal_code', 'item', 'locker_station']);
  const country = o.recipient_country as string;
  // client_size: the sent numbers, reordered
  const sentSizes = (body.client_size as string)
    .split(',')
    .map((p) => p.trim())
    .sort();
  expect((o.client_size as string).split(',').sort()).toEqual(sentSizes);
  // postal_code: sent digits, length by destination; required except HK
  if (country !== 'HK') expect(has('postal_code')).toBe(true);
  if (has('postal_code')) {
    const [min, max] = POSTAL[country] ?? [3, 10];
    expect(o.postal_code).toBe((body.postal_code as string).replace(/[^0-9]/g, ''));
    expect((o.postal_code as string).length).toBeGreaterThanOrEqual(min);
    expect((o.postal_code as string).length).toBeLessThanOrEqual(max);
  }
  if (country === 'US') expect(['USG', 'USE', 'USP']).toContain(o.service_code);
  else if (country === 'SG')
    expect(!has('service_code') || ['SGS', 'SGN', 'SGL'].includes(o.service_code as string)).toBe(true);
  else expect(has('service_code')).toBe(false);
  if (country === 'US') expect(has('recipient_state')).toBe(true);
  // service type: assigned to the account; pickup needs sender fields and SG/MY
  if (has('service_type')) expect(account.serviceTypes).toContain(o.service_type);
  expect(result.serviceType).toBe(has('service_type') ? o.service_type : 'LMD');
  if (result.serviceType === 'PUD') {
    for (const k of ['sender_name', 'sender_phone', 'sender_address']) expect(has(k)).toBe(true);
    if (o.sender_country !== 'HK') expect(has('sender_postal_code')).toBe(true);
    expect(['SG', 'MY']).toContain(country);
  }
  const expectedCarrier =
    { PUD: 'LMX-PU', SLF: 'PSX' }[result.serviceType] ?? { SG: 'LMX', MY: 'LMX', US: 'USX' }[country] ?? 'GLX';
  expect(result.carrier).toBe(expectedCarrier);
  // cash pairing
  expect(has('cash')).toBe(has('cash_currency'));
  if (has('cash_currency') && country === 'SG') expect(o.cash_currency).toBe('SGD');
  // lockers
  expect(has('locker_station')).toBe(o.locker_type === 'A');
  if (o.locker_type === 'A')
    checkObject(o.locker_station as Body, body.locker_station as Body, LOCKER, Object.keys(LOCKER), 'locker_station');
  expect(result.assignedStation !== undefined).toBe(o.locker_type === 'B');
  if (o.locker_type === 'B') {
    expect(country).toBe('SG');
    expect(result.assignedStation!.distance).toBeLessThanOrEqual(5000);
  }
  // items
  const rows = o.item as Body[];
  expect(rows).toHaveLength((body.item as unknown[]).length);
  rows.forEach((row, i) => checkObject(row, (body.item as Body[])[i]!, ITEM, REQUIRED_ITEM, `item ${i + 1}`));
}

export const MESSAGE =
  /^(?:[a-z_]+ (?:require|invalid)|Client Size invalid|Item \d+ [A-Za-z]+ (?:require|invalid)|locker_station(?:\.[a-z_]+)? (?:require|invalid)|recipient_country\([A-Z]{2}\) not allow|Service code invalid|Service code \([\s\S]*\) invalid)$/;

// ---------- generators ----------

export const junk: fc.Arbitrary<unknown> = fc.oneof(
  fc.constantFrom(
    undefined,
    null,
    '',
    '   ',
    '\t',
    true,
    false,
    0,
    -1,
    -0.01,
    1e308,
    'NaN',
    'Infinity',
    '1e3',
    ' 1',
    {},
    [],
    '__proto__',
    'a\u0000b',
    '\ud800',
  ),
  fc.string({ maxLength: 40 }),
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.string({ minLength: 1000, maxLength: 1200 }),
  fc.double(),
  fc.jsonValue({ maxDepth: 2 }),
);
/** Mostly the valid arbitrary, sometimes junk. */
const maybe = <T>(valid: fc.Arbitrary<T>): fc.Arbitrary<unknown> =>
  fc.oneof({ weight: 40, arbitrary: valid }, { weight: 1, arbitrary: junk });
const opt = <T>(valid: fc.Arbitrary<T>): fc.Arbitrary<unknown> =>
  fc.oneof({ weight: 3, arbitrary: fc.constant(undefined) }, { weight: 2, arbitrary: maybe(valid) });
/** Valid values, now and then a near miss (a rule's boundary or format broken). */
const mostly = <T, U>(valid: fc.Arbitrary<T>, nearMiss: fc.Arbitrary<U>): fc.Arbitrary<T | U> =>
  fc.oneof({ weight: 50, arbitrary: valid }, { weight: 1, arbitrary: nearMiss });
/** Text starting with a letter (not blank), up to `max` characters, sometimes one more. */
const words = (max: number, extra: string[] = []) => {
  const unit = fc.constantFrom('a', 'Z', '0', ' ', 'é', '😀', '-', ...extra);
  const build = (n: number) =>
    fc.tuple(fc.constantFrom('a', 'é', '😀'), fc.string({ maxLength: n - 1, unit })).map(([h, t]) => h + t);
  return mostly(build(max), fc.constant('b'.repeat(max + 1)));
};
const digits = (min: number, max: number) =>
  fc.string({ minLength: min, maxLength: max, unit: fc.constantFrom(...'0123456789') });
const decimal = fc.oneof(
  fc.nat(999).map(String),
  fc.tuple(fc.nat(99), fc.nat(99)).map(([a, b]) => `${a}.${b}`),
);
const amountArb = (max: number) =>
  mostly(
    fc.oneof(fc.double({ min: 0, max, noNaN: true }), fc.constantFrom(0, max, '12.34', '0')),
    fc.constantFrom(max + 0.01, -0.01, '1e2'),
  );
const currency = mostly(fc.constantFrom('SGD', 'USD', 'MYR'), fc.constantFrom('usd', 'SG'));
const email = mostly(fc.emailAddress(), fc.constantFrom('a@b@c', '@b', 'a b@c'));
const POSTAL_ARB: Record<string, fc.Arbitrary<string>> = {
  SG: fc.constantFrom('048618', '04-8618', '238858', '078884', '12345'),
  MY: digits(4, 5),
  KR: digits(4, 5),
  JP: fc.oneof(digits(5, 7), fc.constant('100-0001')),
};

const item = fc.record({
  description: maybe(words(255)),
  unitPrice: maybe(amountArb(500)),
  quantity: maybe(mostly(fc.oneof(fc.nat(10), fc.constant('3')), fc.constant(-1))),
  weight: maybe(amountArb(20)),
  currency: maybe(currency),
  totalValue: maybe(amountArb(5000)),
  countryOfOrigin: opt(mostly(fc.constantFrom('CN', 'SG'), fc.constant('cn'))),
  itemHSCode: opt(words(255)),
  productURL: opt(fc.webUrl()),
  $extra: opt(fc.jsonValue({ maxDepth: 1 })),
});

const lockerStationArb = fc.record({
  zipcode: maybe(digits(5, 6)),
  station_name: maybe(words(64)),
  station_address: maybe(words(255)),
  address_detail: maybe(words(255)),
  distance: maybe(fc.oneof(fc.double({ min: 0, max: 1e6, noNaN: true }), fc.constant('12.5'))),
  station_code: maybe(mostly(fc.constantFrom('SGL0001', 'SGL0002', 'SGL0003'), fc.constant('NOPE'))),
  __proto__: opt(fc.constant({ x: 1 })),
});

const COUNTRIES = ['SG', 'SG', 'SG', 'MY', 'HK', 'JP', 'KR', 'US', 'AU', 'TW'];

const orderArb = mostly(fc.constantFrom(...COUNTRIES), fc.constantFrom('GB', 'sg')).chain((country) =>
  fc.record({
    custom_tracking_num: maybe(
      mostly(fc.stringMatching(/^[A-Za-z0-9_-]{1,32}$/), fc.constantFrom('a b', 'x'.repeat(33))),
    ),
    recipient_name: maybe(words(64)),
    recipient_country: maybe(fc.constant(country)),
    recipient_phone: maybe(mostly(digits(1, 24), fc.constantFrom('+65', '1'.repeat(25)))),
    recipient_address: maybe(words(512, ['\n', '\t', '\r'])),
    sender_country: maybe(mostly(fc.constantFrom('SG', 'HK', 'CN'), fc.constant('hk'))),
    client_size: maybe(
      mostly(
        fc
          .tuple(decimal, decimal, decimal, fc.constantFrom(',', ' , ', ', '))
          .map(([a, b, c, sep]) => [a, b, c].join(sep)),
        fc.constantFrom('1,2', '-1,2,3'),
      ),
    ),
    client_weight: maybe(mostly(amountArb(9999), fc.nat(9999).map(String))),
    declared_value: maybe(amountArb(9999.99)),
    declared_value_currency: maybe(currency),
    item: maybe(mostly(fc.array(item, { minLength: 1, maxLength: 3 }), fc.constant([]))),
    postal_code:
      country === 'HK' ? opt(digits(3, 10)) : maybe(mostly(POSTAL_ARB[country] ?? digits(3, 10), digits(1, 12))),
    recipient_state: country === 'US' ? maybe(words(60)) : opt(words(60)),
    recipient_city: opt(words(64)),
    recipient_email: opt(email),
    sender_name: opt(words(64)),
    sender_phone: opt(digits(1, 24)),
    sender_address: opt(words(512)),
    sender_postal_code: opt(mostly(digits(3, 10), fc.constant('12'))),
    sender_city: opt(words(64)),
    sender_email: opt(email),
    service_type: opt(mostly(fc.constantFrom('LMD', 'PUD', 'SLF'), fc.constant('XYZ'))),
    service_code:
      country === 'US'
        ? maybe(mostly(fc.constantFrom('USG', 'USE', 'USP'), fc.constant('XXX')))
        : opt(fc.constantFrom('SGN', 'SGS', 'USG', 'XXX')),
    instruction: opt(words(1024, ['\n', '\r', '\t', '['])),
    cash: opt(amountArb(9999.99)),
    cash_currency: opt(fc.constantFrom('SGD', 'SGD', 'USD')),
    supplier_name: opt(words(64)),
    supplier_gstn: opt(words(64)),
    total_gst_amount: opt(amountArb(9999.99)),
    gst_currency: opt(currency),
    gst_paid: opt(mostly(fc.constantFrom('Y', 'N'), fc.constant('y'))),
    incoterm_type: opt(mostly(fc.constantFrom('DDU', 'DDP'), fc.constant('EXW'))),
    locker_type: opt(mostly(fc.constantFrom('A', 'B'), fc.constant('C'))),
    locker_station: opt(lockerStationArb),
  }),
);

export const FIELDS = Object.keys(TOP);
/** One known field replaced by junk in a quarter of the bodies. */
const mutation = fc.oneof(
  { weight: 3, arbitrary: fc.constant(null) },
  { weight: 1, arbitrary: fc.tuple(fc.constantFrom(...FIELDS), junk) },
);
const extras = fc.dictionary(
  fc.oneof(fc.string({ maxLength: 8 }), fc.constantFrom('$where', '$set', 'constructor', 'toString')),
  fc.jsonValue({ maxDepth: 1 }),
  { maxKeys: 3 },
);
/** Mostly keep cash and cash_currency paired (both or neither), so the pairing rule is not the usual failure. */
const pairCash = fc.oneof({ weight: 9, arbitrary: fc.constant(true) }, { weight: 1, arbitrary: fc.constant(false) });

export const bodyArb = fc
  .tuple(orderArb, mutation, extras, fc.boolean(), pairCash)
  .map(([base, mut, extra, proto, pair]) => {
    const body: Body = { ...extra, ...(base as Body) };
    if (pair && body.cash === undefined) delete body.cash_currency;
    if (pair && body.cash !== undefined) body.cash_currency ??= 'SGD';
    if (mut) body[mut[0]] = mut[1];
    if (proto)
      Object.defineProperty(body, '__proto__', {
        value: { polluted: true, custom_tracking_num: 'X' },
        enumerable: true,
        writable: true,
        configurable: true,
      });
    return body;
  });
