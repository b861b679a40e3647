/**
 * Create-order validation (interface B): spec "Order" / "Item" / "locker_station" tables and
 * decisions.md "Create-order validation". Fields are checked in the Order table's order, then
 * item rows in order; the first failure is the message. The result is built only from known
 * fields, so unknown, `$`-prefixed and `__proto__` keys never reach it. The business rules it asks
 * in the table's order (service types, routing, locker B) are the domain's (`serves`, `routeOrder`,
 * `nearestLocker`).
 */
import { nearestLocker, routeOrder, serves } from '@parcel-logistics/domain';
import type { Account, ReferenceData, StationMatch } from '@parcel-logistics/reference-data';

/** What create-order's checks read of the account: its service types (and the rest of its settings). */
export type OrderingAccount = Pick<Account, 'clientId' | 'serviceTypes' | 'weightUnit' | 'canCancel'>;
import { B } from '../messages.ts';
import type { OrderItem, ValidOrder } from '../order.ts';
import {
  amount,
  clientSize,
  countryCode,
  currencyCode,
  email,
  isBlank,
  isObject,
  oneOf,
  own,
  phone,
  postalCode,
  postalLengthsText,
  text,
} from './checks.ts';
import { describe, fail, runRules } from './rules.ts';
import type { Condition, Messages, Rule } from './rules.ts';

export type CreateOrderValidation =
  | { ok: true; order: ValidOrder; carrier: string; serviceType: string; assignedStation?: StationMatch }
  | { ok: false; message: string };

export const MAX_ITEM_ROWS = 1000;

export interface State {
  account: OrderingAccount;
  ref: ReferenceData;
  body: object;
  /** Fields accepted so far, in table order. */
  order: Record<string, unknown>;
  station?: StationMatch;
}

/** Validated before any rule that reads it (third in the table, required). */
const country = (s: State): string => s.order.recipient_country as string;
const echo = (raw: unknown): string => (typeof raw === 'string' ? raw : (JSON.stringify(raw) ?? String(raw)));

// ---- conditions: decided on the state, described for the reference ----

const countryIs = (code: string): Condition<State> => ({
  holds: (s) => country(s) === code,
  text: `recipient_country is ${code}`,
  schema: () => ({ properties: { recipient_country: { const: code } }, required: ['recipient_country'] }),
});
const countryIsNot = (code: string): Condition<State> => ({
  holds: (s) => country(s) !== code,
  text: `recipient_country is not ${code}`,
  schema: () => ({ not: { properties: { recipient_country: { const: code } } } }),
});
const countryIn = (...codes: string[]): Condition<State> => ({
  holds: (s) => codes.includes(country(s)),
  text: `recipient_country is ${codes.join(' or ')}`,
  schema: () => ({ properties: { recipient_country: { enum: codes } }, required: ['recipient_country'] }),
});
const pickupCodes = (ref: ReferenceData) => [...ref.serviceTypes.values()].filter((t) => t.pickup).map((t) => t.code);
/** Pickup is looked up from the raw service_type, which is validated later in table order. */
const pickup: Condition<State> = {
  holds: (s) => {
    const raw = own(s.body, 'service_type');
    return typeof raw === 'string' && s.ref.serviceTypes.get(raw)?.pickup === true;
  },
  text: (ref) => `service_type is a pickup type (${pickupCodes(ref).join(', ')})`,
  schema: (ref) => ({ properties: { service_type: { enum: pickupCodes(ref) } }, required: ['service_type'] }),
};
const pickupUnlessSenderInHK: Condition<State> = {
  holds: (s) => pickup.holds(s) && s.order.sender_country !== 'HK',
  text: (ref) => `${describe(pickup.text, ref)} and sender_country is not HK`,
  schema: (ref) => ({ allOf: [pickup.schema!(ref), { not: { properties: { sender_country: { const: 'HK' } } } }] }),
};
/** Sent: present and not blank (a blank optional field counts as absent). */
const sent = (field: string): Condition<State> => ({
  holds: (s) => !isBlank(own(s.body, field)),
  text: `${field} is sent`,
  schema: () => ({ required: [field] }),
});
/** Accepted by its own rule earlier in the table. */
const accepted = (field: string): Condition<State> => ({
  holds: (s) => s.order[field] !== undefined,
  text: `${field} is sent`,
  schema: () => ({ required: [field] }),
});
const lockerTypeA: Condition<State> = {
  holds: (s) => s.order.locker_type === 'A',
  text: 'locker_type is A',
  schema: () => ({ properties: { locker_type: { const: 'A' } }, required: ['locker_type'] }),
};

// ---- checks that need the state ----

const serviceTypeCode = text({ min: 3, max: 3 });
const checkServiceType = (raw: unknown, s: State): string | undefined => {
  const code = serviceTypeCode(raw);
  return code !== undefined && serves(s.ref, s.account, code, country(s)) ? code : undefined;
};
const serviceTypeDoc = (ref: ReferenceData): string =>
  'A code assigned to the account (`service_type invalid` otherwise); without one the order is handled as ' +
  `${ref.defaultServiceType}. ` +
  [...ref.serviceTypes.values()]
    .map((t) => `${t.code}: ${t.name}${t.countries ? ` (to ${t.countries.join(', ')} only)` : ''}`)
    .join('; ') +
  '.';

const lockerTypes = oneOf('A', 'B');
const checkLockerType = (raw: unknown, s: State): string | undefined => {
  const type = lockerTypes(raw);
  if (type !== 'B') return type;
  s.station = nearestLocker(s.ref, country(s), s.order.postal_code as string | undefined);
  return s.station ? type : undefined;
};

export const lockerMessages: Messages = {
  require: (f) => B.require(`locker_station.${f}`),
  invalid: (f) => B.invalid(`locker_station.${f}`),
};

const stationCode = text({ max: 10 });
export const lockerRules: Rule<State>[] = [
  { field: 'zipcode', required: true, check: text({ max: 16 }) },
  { field: 'station_name', required: true, check: text({ max: 64 }) },
  { field: 'station_address', required: true, check: text({ max: 255 }) },
  { field: 'address_detail', required: true, check: text({ max: 255 }) },
  { field: 'distance', required: true, check: amount(0) },
  {
    field: 'station_code',
    required: true,
    check: (raw, s) => {
      const code = stationCode(raw);
      return code !== undefined && s.ref.stationByCode(code) ? code : undefined;
    },
    schema: stationCode.schema,
    doc: 'The Station_Code of a station that get-stations lists.',
  },
];

/** A JSON object whose fields are checked in the locker_station table's order; anything else is invalid. */
const checkLockerStation = (raw: unknown, s: State): unknown => {
  if (!isObject(raw)) return undefined;
  const station: Record<string, unknown> = {};
  const message = runRules(lockerRules, raw, s, lockerMessages, station);
  return message === undefined ? station : fail(message);
};

export const itemRules: Rule<State>[] = [
  { field: 'description', required: true, check: text({ max: 255 }) },
  { field: 'unitPrice', required: true, check: amount(0) },
  { field: 'quantity', required: true, check: amount(0) },
  { field: 'weight', required: true, check: amount(0) },
  { field: 'currency', required: true, check: currencyCode },
  { field: 'totalValue', required: true, check: amount(0) },
  { field: 'countryOfOrigin', check: countryCode },
  { field: 'itemHSCode', check: text({ max: 255 }) },
  { field: 'productURL', check: text({ max: 500 }) },
];

/** Structure only here (at item's position); row contents are checked after every top-level field. */
const checkItems = (raw: unknown): unknown =>
  Array.isArray(raw) && raw.length <= MAX_ITEM_ROWS && raw.every(isObject) ? raw : undefined;

const money = amount(0, 9999.99);
const always = true;
/** The components the Order's schema refers to for its nested objects. */
export const ORDER_PARTS = { item: 'OrderItem', lockerStation: 'OrderLockerStation' } as const;
const component = (name: string) => ({ $ref: `#/components/schemas/${name}` });

/** The Order table, in order. */
export const orderRules: Rule<State>[] = [
  {
    field: 'custom_tracking_num',
    required: always,
    check: text({ max: 32, pattern: /^[A-Za-z0-9_-]+$/ }),
    doc: 'Your own order reference, unique in your account.',
  },
  { field: 'recipient_name', required: always, check: text({ max: 64 }) },
  {
    field: 'recipient_country',
    required: always,
    check: (raw, s) => {
      const code = countryCode(raw);
      return code === undefined || s.ref.allowedCountries.has(code) ? code : fail(B.countryNotAllowed(code));
    },
    schema: (ref) => ({ ...countryCode.schema, enum: [...ref.allowedCountries] }),
    messages: [B.countryNotAllowed('<XX>')],
  },
  { field: 'recipient_phone', required: always, check: phone, doc: 'Digits only.' },
  { field: 'recipient_address', required: always, check: text({ max: 512, multiline: true }) },
  { field: 'sender_country', required: always, check: countryCode },
  {
    field: 'client_size',
    required: always,
    check: clientSize,
    invalid: B.clientSizeInvalid,
    doc: '`L,W,H` in centimetres; stored reordered largest first.',
  },
  { field: 'client_weight', required: always, check: amount(0, 9999), doc: 'In the account’s weight unit.' },
  { field: 'declared_value', required: always, check: money },
  { field: 'declared_value_currency', required: always, check: currencyCode },
  {
    field: 'item',
    required: always,
    check: checkItems,
    empty: (raw) => Array.isArray(raw) && raw.length === 0,
    schema: { type: 'array', minItems: 1, maxItems: MAX_ITEM_ROWS, items: component(ORDER_PARTS.item) },
    doc: 'Rows are checked after every other field, in order.',
    messages: [B.itemRequire('<row>', '<field>'), B.itemInvalid('<row>', '<field>')],
  },
  {
    field: 'postal_code',
    required: countryIsNot('HK'),
    check: (raw, s) => postalCode(country(s))(raw),
    schema: postalCode('').schema,
    doc: () =>
      `Non-digits are stripped first, then the length is checked by destination: ${postalLengthsText()}. The digits are stored.`,
  },
  { field: 'recipient_state', required: countryIs('US'), check: text({ max: 60 }) },
  { field: 'recipient_city', check: text({ max: 64 }) },
  { field: 'recipient_email', check: email },
  { field: 'sender_name', required: pickup, check: text({ max: 64 }) },
  { field: 'sender_phone', required: pickup, check: phone },
  { field: 'sender_address', required: pickup, check: text({ max: 512, multiline: true }) },
  { field: 'sender_postal_code', required: pickupUnlessSenderInHK, check: text({ min: 3, max: 10 }) },
  { field: 'sender_city', check: text({ max: 64 }) },
  { field: 'sender_email', check: email },
  {
    field: 'service_type',
    check: checkServiceType,
    schema: (ref) => ({ ...serviceTypeCode.schema, enum: [...ref.serviceTypes.keys()] }),
    doc: serviceTypeDoc,
  },
  {
    field: 'service_code',
    when: countryIn('US', 'SG'),
    absent: { when: countryIs('US'), message: B.serviceCodeInvalid },
    check: (raw, s) => {
      if (typeof raw === 'string' && s.ref.serviceCodes.get(country(s))?.has(raw)) return raw;
      return country(s) === 'US' ? undefined : fail(B.serviceCodeValueInvalid(echo(raw)));
    },
    invalid: B.serviceCodeInvalid,
    schema: (ref) => ({ type: 'string', enum: [...ref.serviceCodes.values()].flatMap((codes) => [...codes.keys()]) }),
    doc: (ref) =>
      'Carrier routing code of the destination, ignored for the others: ' +
      [...ref.serviceCodes]
        .map(([c, codes]) => `${c} ${[...codes].map(([code, name]) => `${code} (${name})`).join(', ')}`)
        .join('; ') +
      '.',
    messages: [B.serviceCodeValueInvalid('<code>')],
  },
  { field: 'instruction', check: text({ max: 1024, multiline: true }), doc: 'Delivery instructions.' },
  {
    field: 'cash',
    absent: { when: sent('cash_currency'), message: B.require('cash') },
    check: money,
    doc: 'Cash on delivery; needs cash_currency.',
  },
  {
    field: 'cash_currency',
    required: accepted('cash'),
    check: (raw, s) => {
      const code = currencyCode(raw);
      return country(s) === 'SG' && code !== 'SGD' ? undefined : code;
    },
    schema: currencyCode.schema,
    doc: 'SGD when recipient_country is SG.',
  },
  { field: 'supplier_name', check: text({ max: 64 }) },
  { field: 'supplier_gstn', check: text({ max: 64 }), doc: 'Supplier GST registration number.' },
  { field: 'total_gst_amount', check: money },
  { field: 'gst_currency', check: currencyCode },
  { field: 'gst_paid', check: oneOf('Y', 'N') },
  { field: 'incoterm_type', check: oneOf('DDU', 'DDP') },
  {
    field: 'locker_type',
    check: checkLockerType,
    schema: lockerTypes.schema,
    doc: 'A: the address is a locker already (send locker_station). B: the order goes to the nearest station within 5 km of postal_code (Singapore destinations only; none near: `locker_type invalid`).',
  },
  // Only for locker_type A; otherwise a sent locker_station is ignored and not stored.
  {
    field: 'locker_station',
    when: lockerTypeA,
    required: always,
    check: checkLockerStation,
    schema: component(ORDER_PARTS.lockerStation),
    messages: [lockerMessages.require('<field>'), lockerMessages.invalid('<field>')],
  },
];

export const orderMessages: Messages = { require: B.require, invalid: B.invalid };

export const rowMessages = (row: number | string): Messages => ({
  require: (f) => B.itemRequire(row, f),
  invalid: (f) => B.itemInvalid(row, f),
});

export function validateCreateOrder(
  body: Record<string, unknown>,
  ctx: { account: OrderingAccount; ref: ReferenceData },
): CreateOrderValidation {
  const s: State = {
    account: ctx.account,
    ref: ctx.ref,
    body: isObject(body) ? body : {},
    order: {},
  };
  const failed = runRules(orderRules, s.body, s, orderMessages, s.order);
  if (failed !== undefined) return { ok: false, message: failed };

  const rows = s.order.item as Record<string, unknown>[];
  const items: OrderItem[] = [];
  for (const [i, row] of rows.entries()) {
    const item: Record<string, unknown> = {};
    const message = runRules(itemRules, row, s, rowMessages(i + 1), item);
    if (message !== undefined) return { ok: false, message };
    items.push(item as unknown as OrderItem);
  }
  s.order.item = items;

  const { serviceType, carrier } = routeOrder(s.ref, s.order.service_type as string | undefined, country(s));
  const order = s.order as unknown as ValidOrder;
  return s.station
    ? { ok: true, order, carrier, serviceType, assignedStation: s.station }
    : { ok: true, order, carrier, serviceType };
}
