import type { StoredParcelView } from '@parcel-logistics/contracts';
import { clean, money, num } from './text.ts';
import type { LabelFormat, LabelModel, LabelReference, PartyModel } from './types.ts';

const MM = 72 / 25.4;

export const LABEL_FORMATS: Record<LabelFormat['name'], LabelFormat> = {
  '100x150mm': { name: '100x150mm', widthPt: 100 * MM, heightPt: 150 * MM },
  A6: { name: 'A6', widthPt: 105 * MM, heightPt: 148 * MM },
  '4x6in': { name: '4x6in', widthPt: 4 * 72, heightPt: 6 * 72 },
};

/** Service type the parcel ships under; an order without one is handled as the default type. */
function effectiveServiceType(view: StoredParcelView, ref?: LabelReference): string {
  return view.serviceType || view.order.service_type || ref?.defaultServiceType || '';
}

/**
 * US destinations: 4 x 6 in, whatever the service type (US carriers' thermal stock; this rule
 * wins). Self-label service types (SLF): A6. Everything else (LMD, PUD, none): 100 x 150 mm.
 */
export function labelFormatFor(view: StoredParcelView, ref?: LabelReference): LabelFormat {
  if (view.order.recipient_country === 'US') return LABEL_FORMATS['4x6in'];
  const type = effectiveServiceType(view, ref);
  const selfLabel = ref?.serviceTypes.get(type)?.selfLabel ?? type === 'SLF';
  return selfLabel ? LABEL_FORMATS.A6 : LABEL_FORMATS['100x150mm'];
}

const LANG_BY_COUNTRY: Record<string, string> = {
  JP: 'ja',
  KR: 'ko',
  TH: 'th',
  TW: 'zh-Hant',
  HK: 'zh-Hant',
  CN: 'zh-Hans',
  SG: 'en',
  MY: 'en',
};
export const langFor = (country: string): string => LANG_BY_COUNTRY[country] ?? 'en';

export const joinNonEmpty = (parts: (string | undefined)[], sep: string): string =>
  parts
    .map((p) => clean(p))
    .filter(Boolean)
    .join(sep);

/** ISO 8601 date part of a timestamp kept in Singapore time. */
export function dateOf(iso: string): string {
  const m = /^(\d{4}-\d{2}-\d{2})/.exec(iso);
  return m?.[1] ?? clean(iso);
}

/** The sender or the recipient as the order gives them (the sender has no state). */
export interface OrderParty {
  name?: string;
  address?: string;
  city?: string;
  state?: string;
  postal?: string;
  country?: string;
  phone?: string;
  email?: string;
}

type Order = StoredParcelView['order'];

export const senderOf = (o: Order): OrderParty => ({
  name: o.sender_name,
  address: o.sender_address,
  city: o.sender_city,
  postal: o.sender_postal_code,
  country: o.sender_country,
  phone: o.sender_phone,
  email: o.sender_email,
});

export const recipientOf = (o: Order): OrderParty => ({
  name: o.recipient_name,
  address: o.recipient_address,
  city: o.recipient_city,
  state: o.recipient_state,
  postal: o.postal_code,
  country: o.recipient_country,
  phone: o.recipient_phone,
  email: o.recipient_email,
});

/** City, state and postal code, country: the parts there are. */
export const placeOf = (p: OrderParty): string =>
  joinNonEmpty([p.city, joinNonEmpty([p.state, p.postal], ' '), p.country], ', ');

function party(p: OrderParty): PartyModel {
  return {
    name: clean(p.name),
    address: clean(p.address),
    place: placeOf(p),
    phone: clean(p.phone) ? `Tel ${clean(p.phone)}` : '',
  };
}

export function buildLabelModel(view: StoredParcelView, ref: LabelReference): LabelModel {
  const o = view.order;
  const country = clean(o.recipient_country);
  const type = effectiveServiceType(view, ref);
  const typeName = ref.serviceTypes.get(type)?.name;
  const codeName = o.service_code ? ref.serviceCodes.get(country)?.get(o.service_code) : undefined;
  const carrier = ref.carriers.get(view.carrier)?.name ?? view.carrier;
  const size = clean(o.client_size)
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  const station = view.lockerStation;
  return {
    format: labelFormatFor(view, ref),
    lang: langFor(country),
    country,
    trackingNumber: clean(view.trackingNumber),
    carrier: clean(carrier),
    service: joinNonEmpty([type, typeName], ' '),
    serviceCode: joinNonEmpty([o.service_code, codeName], ' '),
    date: dateOf(view.createdAt),
    recipient: party(recipientOf(o)),
    sender: party(senderOf(o)),
    destination: joinNonEmpty([o.recipient_country, o.postal_code], ' '),
    weight: joinNonEmpty([num(o.client_weight, 3), view.weightUnit], ' '),
    size: size.length ? `${size.join(' x ')} cm` : '',
    ...(o.cash !== undefined ? { cod: money(o.cash, o.cash_currency) } : {}),
    ...(station
      ? {
          locker: {
            station: joinNonEmpty([station.code, station.name], ' '),
            address: joinNonEmpty([station.address, station.addressDetail, station.zipcode], ', '),
          },
        }
      : {}),
    reference: clean(view.customTrackingNum || o.custom_tracking_num),
    instruction: clean(o.instruction),
  };
}
