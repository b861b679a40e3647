/**
 * The order of interface B mapped to the domain's ParcelOrder and back. The request body
 * (ValidOrder) maps onto it field by field through ORDER_FIELDS, the one list of that mapping, read
 * both ways: into the domain at the edge and by the upcaster of `ParcelRegistered.v1`; back to the
 * body's shape for the stored views and `parcel.events.v1`.
 */
import type { Decimal, Dimensions, ParcelOrder, Weight, WeightUnit } from '@parcel-logistics/domain';
import type { ValidOrder } from './order.ts';

/** How one field of the body becomes a value of the domain and back; by default it is kept as it is. */
interface Codec {
  toDomain(value: unknown, unit: WeightUnit): unknown;
  toApi(value: unknown): unknown;
}

/** A body field, where it lives in the domain (every path gets the value; the first one gives it back), and its codec. */
type Field = readonly [api: string, paths: string | readonly string[], codec?: Codec];

const weight: Codec = {
  toDomain: (value, unit): Weight => ({ value: value as number, unit }),
  toApi: (w) => (w as Weight).value,
};

/** `L,W,H` as validation stores it: already largest first. */
const size: Codec = {
  toDomain: (value): Dimensions => {
    const [length, width, height] = (value as string).split(',') as [Decimal, Decimal, Decimal];
    return { unit: 'cm', length, width, height };
  },
  toApi: (d) => {
    const { length, width, height } = d as Dimensions;
    return `${length},${width},${height}`;
  },
};

const rows = (fields: readonly Field[]): Codec => ({
  toDomain: (value, unit) => (value as Record<string, unknown>[]).map((row) => toDomainFields(fields, row, unit)),
  toApi: (value) => (value as Record<string, unknown>[]).map((row) => toApiFields(fields, row)),
});

const nested = (fields: readonly Field[]): Codec => ({
  toDomain: (value, unit) => toDomainFields(fields, value as Record<string, unknown>, unit),
  toApi: (value) => toApiFields(fields, value as Record<string, unknown>),
});

export const LINE_FIELDS: readonly Field[] = [
  ['description', 'description'],
  ['unitPrice', 'unitPrice.amount'],
  ['quantity', 'quantity'],
  ['weight', 'weight', weight],
  ['currency', ['unitPrice.currency', 'totalValue.currency']],
  ['totalValue', 'totalValue.amount'],
  ['countryOfOrigin', 'countryOfOrigin'],
  ['itemHSCode', 'hsCode'],
  ['productURL', 'productUrl'],
];

export const STATION_FIELDS: readonly Field[] = [
  ['zipcode', 'zipcode'],
  ['station_name', 'name'],
  ['station_address', 'address'],
  ['address_detail', 'addressDetail'],
  ['distance', 'distance'],
  ['station_code', 'code'],
];

/** In the Order table's order, which is the order of the body's keys as validation stores them. */
export const ORDER_FIELDS: readonly Field[] = [
  ['custom_tracking_num', 'reference'],
  ['recipient_name', 'recipient.name'],
  ['recipient_country', 'recipient.country'],
  ['recipient_phone', 'recipient.phone'],
  ['recipient_address', 'recipient.address'],
  ['sender_country', 'sender.country'],
  ['client_size', 'dimensions', size],
  ['client_weight', 'weight', weight],
  ['declared_value', 'declaredValue.amount'],
  ['declared_value_currency', 'declaredValue.currency'],
  ['item', 'lines', rows(LINE_FIELDS)],
  ['postal_code', 'recipient.postalCode'],
  ['recipient_state', 'recipient.state'],
  ['recipient_city', 'recipient.city'],
  ['recipient_email', 'recipient.email'],
  ['sender_name', 'sender.name'],
  ['sender_phone', 'sender.phone'],
  ['sender_address', 'sender.address'],
  ['sender_postal_code', 'sender.postalCode'],
  ['sender_city', 'sender.city'],
  ['sender_email', 'sender.email'],
  ['service_type', 'serviceType'],
  ['service_code', 'serviceCode'],
  ['instruction', 'instruction'],
  ['cash', 'cashOnDelivery.amount'],
  ['cash_currency', 'cashOnDelivery.currency'],
  ['supplier_name', 'supplier.name'],
  ['supplier_gstn', 'supplier.gstn'],
  ['total_gst_amount', 'gst.amount'],
  ['gst_currency', 'gst.currency'],
  ['gst_paid', 'gst.paid'],
  ['incoterm_type', 'incoterm'],
  ['locker_type', 'locker.type'],
  ['locker_station', 'locker.station', nested(STATION_FIELDS)],
];

/** A field path's keys, split once per path: orders map every field both ways, many times a second. */
const keysOfPath = new Map<string, readonly string[]>();
const keysOf = (path: string): readonly string[] => {
  let keys = keysOfPath.get(path);
  if (!keys) keysOfPath.set(path, (keys = path.split('.')));
  return keys;
};

function put(target: Record<string, unknown>, path: string, value: unknown): void {
  const keys = keysOf(path);
  let at = target;
  for (let i = 0; i < keys.length - 1; i++) at = (at[keys[i]!] ??= {}) as Record<string, unknown>;
  at[keys[keys.length - 1]!] = value;
}

function take(source: Record<string, unknown>, path: string): unknown {
  let at: unknown = source;
  for (const key of keysOf(path)) at = at === undefined ? undefined : (at as Record<string, unknown>)[key];
  return at;
}

function toDomainFields(
  fields: readonly Field[],
  body: Record<string, unknown>,
  unit: WeightUnit,
): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [api, paths, codec] of fields) {
    const value = body[api];
    if (value === undefined) continue;
    if (typeof paths === 'string') put(out, paths, codec ? codec.toDomain(value, unit) : value);
    else for (const path of paths) put(out, path, codec ? codec.toDomain(value, unit) : value);
  }
  return out;
}

function toApiFields(fields: readonly Field[], domain: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [api, paths, codec] of fields) {
    const value = take(domain, typeof paths === 'string' ? paths : paths[0]!);
    if (value !== undefined) out[api] = codec ? codec.toApi(value) : value;
  }
  return out;
}

/** A validated interface B order in the domain's words; weights in the account's unit. */
export const toParcelOrder = (order: ValidOrder, unit: WeightUnit): ParcelOrder =>
  toDomainFields(ORDER_FIELDS, order as unknown as Record<string, unknown>, unit) as unknown as ParcelOrder;

/** The interface B shape of a domain order, keys in the Order table's order (as validation stored them). */
export const toValidOrder = (order: ParcelOrder): ValidOrder =>
  toApiFields(ORDER_FIELDS, order as unknown as Record<string, unknown>) as unknown as ValidOrder;
