/**
 * Create-order validation (interface B): spec "Order" / "Item" / "locker_station" tables and
 * decisions.md "Create-order validation". Fields are checked in the Order table's order, then
 * item rows in order; the first failure is the message. The result is built only from known
 * fields, so unknown, `$`-prefixed and `__proto__` keys never reach it.
 */
import type { Account, ReferenceData, StationMatch } from '@parcel/reference-data';
import { B } from '../messages.ts';
import type { OrderItem, ValidOrder } from '../order.ts';
import { amount, clientSize, countryCode, currencyCode, email, isBlank, isObject, oneOf, own, phone, postalCode, text } from './checks.ts';
import { fail, runRules } from './rules.ts';
import type { Messages, Rule } from './rules.ts';

export type CreateOrderValidation =
  | { ok: true; order: ValidOrder; carrier: string; serviceType: string; assignedStation?: StationMatch }
  | { ok: false; message: string };

export const MAX_ITEM_ROWS = 1000;
/** decisions.md, Reference data: locker_type B takes the nearest station within 5 km. */
export const LOCKER_RADIUS_M = 5000;

interface State {
  account: Account;
  ref: ReferenceData;
  body: object;
  /** Fields accepted so far, in table order. */
  order: Record<string, unknown>;
  station?: StationMatch;
}

/** Validated before any rule that reads it (third in the table, required). */
const country = (s: State): string => s.order.recipient_country as string;
const given = (s: State, field: string): boolean => s.order[field] !== undefined;
const sent = (s: State, field: string): boolean => !isBlank(own(s.body, field));
/** Pickup is looked up from the raw service_type, which is validated later in table order. */
const pickup = (s: State): boolean => {
  const raw = own(s.body, 'service_type');
  return typeof raw === 'string' && s.ref.serviceTypes.get(raw)?.pickup === true;
};
const echo = (raw: unknown): string => (typeof raw === 'string' ? raw : (JSON.stringify(raw) ?? String(raw)));

const checkServiceType = (raw: unknown, s: State): string | undefined => {
  const code = text({ min: 3, max: 3 })(raw);
  const def = code === undefined ? undefined : s.ref.serviceTypes.get(code);
  if (code === undefined || !def || !s.account.serviceTypes.includes(code)) return undefined;
  return def.countries && !def.countries.includes(country(s)) ? undefined : code;
};

const checkLockerType = (raw: unknown, s: State): string | undefined => {
  const type = oneOf('A', 'B')(raw);
  if (type !== 'B') return type;
  // Stations and the geocoder cover Singapore only: B elsewhere could only match by accident.
  const postal = s.order.postal_code;
  if (country(s) !== 'SG' || typeof postal !== 'string') return undefined;
  s.station = s.ref.stationsNear(postal, LOCKER_RADIUS_M, 1)[0];
  return s.station ? type : undefined;
};

const lockerMessages: Messages = {
  require: (f) => B.require(`locker_station.${f}`),
  invalid: (f) => B.invalid(`locker_station.${f}`),
};

const lockerRules: Rule<State>[] = [
  { field: 'zipcode', required: true, check: text({ max: 16 }) },
  { field: 'station_name', required: true, check: text({ max: 64 }) },
  { field: 'station_address', required: true, check: text({ max: 255 }) },
  { field: 'address_detail', required: true, check: text({ max: 255 }) },
  { field: 'distance', required: true, check: amount(0) },
  { field: 'station_code', required: true, check: (raw, s) => {
    const code = text({ max: 10 })(raw);
    return code !== undefined && s.ref.stationByCode(code) ? code : undefined;
  } },
];

const checkLockerStation = (raw: unknown, s: State): unknown => {
  const station: Record<string, unknown> = {};
  const message = runRules(lockerRules, raw as object, s, lockerMessages, station);
  return message === undefined ? station : fail(message);
};

const itemRules: Rule<State>[] = [
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

/** The Order table, in order. */
const orderRules: Rule<State>[] = [
  { field: 'custom_tracking_num', required: always, check: text({ max: 32, pattern: /^[A-Za-z0-9_-]+$/ }) },
  { field: 'recipient_name', required: always, check: text({ max: 64 }) },
  { field: 'recipient_country', required: always, check: (raw, s) => {
    const code = countryCode(raw);
    return code === undefined || s.ref.allowedCountries.has(code) ? code : fail(B.countryNotAllowed(code));
  } },
  { field: 'recipient_phone', required: always, check: phone },
  { field: 'recipient_address', required: always, check: text({ max: 512, multiline: true }) },
  { field: 'sender_country', required: always, check: countryCode },
  { field: 'client_size', required: always, check: clientSize, invalid: B.clientSizeInvalid },
  { field: 'client_weight', required: always, check: amount(0, 9999) },
  { field: 'declared_value', required: always, check: money },
  { field: 'declared_value_currency', required: always, check: currencyCode },
  { field: 'item', required: always, check: checkItems, empty: (raw) => Array.isArray(raw) && raw.length === 0 },
  { field: 'postal_code', required: (s) => country(s) !== 'HK', check: (raw, s) => postalCode(country(s))(raw) },
  { field: 'recipient_state', required: (s) => country(s) === 'US', check: text({ max: 60 }) },
  { field: 'recipient_city', check: text({ max: 64 }) },
  { field: 'recipient_email', check: email },
  { field: 'sender_name', required: pickup, check: text({ max: 64 }) },
  { field: 'sender_phone', required: pickup, check: phone },
  { field: 'sender_address', required: pickup, check: text({ max: 512, multiline: true }) },
  { field: 'sender_postal_code', required: (s) => pickup(s) && s.order.sender_country !== 'HK', check: text({ min: 3, max: 10 }) },
  { field: 'sender_city', check: text({ max: 64 }) },
  { field: 'sender_email', check: email },
  { field: 'service_type', check: checkServiceType },
  {
    field: 'service_code',
    when: (s) => country(s) === 'US' || country(s) === 'SG',
    absent: (s) => (country(s) === 'US' ? B.serviceCodeInvalid : undefined),
    check: (raw, s) =>
      typeof raw === 'string' && s.ref.serviceCodes.get(country(s))?.has(raw)
        ? raw
        : fail(country(s) === 'US' ? B.serviceCodeInvalid : B.serviceCodeValueInvalid(echo(raw))),
  },
  { field: 'instruction', check: text({ max: 1024, multiline: true }) },
  { field: 'cash', absent: (s) => (sent(s, 'cash_currency') ? B.require('cash') : undefined), check: money },
  {
    field: 'cash_currency',
    required: (s) => given(s, 'cash'),
    check: (raw, s) => {
      const code = currencyCode(raw);
      return country(s) === 'SG' && code !== 'SGD' ? undefined : code;
    },
  },
  { field: 'supplier_name', check: text({ max: 64 }) },
  { field: 'supplier_gstn', check: text({ max: 64 }) },
  { field: 'total_gst_amount', check: money },
  { field: 'gst_currency', check: currencyCode },
  { field: 'gst_paid', check: oneOf('Y', 'N') },
  { field: 'incoterm_type', check: oneOf('DDU', 'DDP') },
  { field: 'locker_type', check: checkLockerType },
  // Only for locker_type A; otherwise a sent locker_station is ignored and not stored.
  { field: 'locker_station', when: (s) => s.order.locker_type === 'A', required: always, empty: (raw) => !isObject(raw), check: checkLockerStation },
];

const orderMessages: Messages = { require: B.require, invalid: B.invalid };

const rowMessages = (row: number): Messages => ({
  require: (f) => B.itemRequire(row, f),
  invalid: (f) => B.itemInvalid(row, f),
});

export function validateCreateOrder(body: Record<string, unknown>, ctx: { account: Account; ref: ReferenceData }): CreateOrderValidation {
  const s: State = { account: ctx.account, ref: ctx.ref, body: isObject(body) ? body : {}, order: {} };
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

  const recipient = country(s);
  const serviceType = (s.order.service_type as string | undefined) ?? s.ref.defaultServiceType;
  const { byCountry, defaultCarrier } = s.ref.routing;
  const carrier = s.ref.serviceTypes.get(serviceType)?.carrier ?? (Object.hasOwn(byCountry, recipient) ? byCountry[recipient] : undefined) ?? defaultCarrier;
  const order = s.order as unknown as ValidOrder;
  return s.station ? { ok: true, order, carrier, serviceType, assignedStation: s.station } : { ok: true, order, carrier, serviceType };
}
