/** Hand-built parcel views for the label tests; the base parcel and the Japanese one are the label benchmark's (bench/parcelViews.ts). */
import type { StoredParcelView } from '@parcel-logistics/contracts';
import { item, jpNonLatin, view } from '../../../bench/parcelViews.ts';

export { jpNonLatin, view };

/** Singapore, last mile, locker station, cash on delivery, service code. */
export const sgLockerCod = view(
  'PX7K2M9Q4T8W3N5',
  {
    service_type: 'LMD',
    service_code: 'SGL',
    cash: 25.5,
    cash_currency: 'SGD',
    locker_type: 'B',
    instruction: 'Leave at the locker, call on arrival',
    sender_name: 'Acme Store Pte Ltd',
    sender_address: '1 Fusionopolis Way #20-01',
    sender_postal_code: '138632',
    sender_phone: '6567001234',
  },
  {
    lockerStation: {
      code: 'SGL0142',
      name: 'Marina Bay Link Mall Locker',
      address: '8A Marina Boulevard, B2-01',
      addressDetail: 'Near the MRT exit B',
      zipcode: '018984',
      distance: 410.2,
    },
  },
);

/** Malaysia, pickup and delivery. */
export const myPickup = view(
  'PM3Z8R1D6F0H2J4',
  {
    service_type: 'PUD',
    recipient_country: 'MY',
    recipient_name: 'Nur Aisyah binti Ahmad',
    recipient_address: 'No. 12, Jalan Ampang, Taman U-Thant',
    recipient_city: 'Kuala Lumpur',
    recipient_state: 'Wilayah Persekutuan',
    postal_code: '50450',
    sender_name: 'Kedai Runcit Sdn Bhd',
    sender_phone: '60312345678',
    sender_address: 'Lot 5, Jalan Tun Razak',
    sender_postal_code: '50400',
    sender_country: 'MY',
    declared_value_currency: 'MYR',
    item: [item({ currency: 'MYR', description: 'Batik sarong', countryOfOrigin: 'MY', itemHSCode: '520852' })],
  },
  { carrier: 'LMX-PU' },
);

/** United States with a service code: 4 x 6 in. */
export const usExpress = view(
  'PU5C9V2B7N1M4K8',
  {
    service_type: 'LMD',
    service_code: 'USE',
    recipient_country: 'US',
    recipient_name: 'Jordan Smith',
    recipient_address: '1600 Amphitheatre Parkway',
    recipient_city: 'Mountain View',
    recipient_state: 'CA',
    postal_code: '94043',
    declared_value: 80,
    declared_value_currency: 'USD',
    item: [
      item({ currency: 'USD', totalValue: 80, unitPrice: 40, description: 'Wireless earbuds', itemHSCode: '851830' }),
    ],
  },
  { carrier: 'USX' },
);

/** Self-label service: A6. */
export const selfLabel = view(
  'PS1A2B3C4D5E6F7',
  {
    service_type: 'SLF',
    recipient_country: 'AU',
    recipient_name: 'Olivia Brown',
    recipient_address: '1 Macquarie Street, Sydney NSW',
    postal_code: '2000',
  },
  { carrier: 'PSX', serviceType: 'SLF' },
);

/** No service type at all: handled as last mile. */
export const noServiceType = view(
  'PN0S1T2Y3P4E5X6',
  { recipient_country: 'HK', postal_code: undefined, recipient_address: "1 Queen's Road Central, Hong Kong" },
  { serviceType: '', carrier: 'GLX' },
);

const LONG_ADDRESS = Array.from({ length: 50 }, (_, i) => `Block ${i + 1} Lorong Panjang`)
  .join(' ')
  .padEnd(1000, 'W')
  .slice(0, 1000);
const LONG_INSTRUCTION = 'Please ring the bell twice and wait. '.repeat(300).slice(0, 10_000);

/** Markup, ZPL commands and oversized values in every field a user controls. */
export const hostile = view(
  'PH0S7I1L3E5X9Z2',
  {
    service_type: 'LMD',
    service_code: 'SGS',
    recipient_name: '<script>alert(1)</script>',
    sender_name: '"><img src=x onerror=alert(1)>',
    recipient_address: `^XZ^XA^FO0,0^FDpwned^FS ~JA ${LONG_ADDRESS}`,
    sender_address: '~JA~JR^XZ^XA_5E {{7*7}} \\& back\\slash',
    recipient_city: 'City\u0000With\u0007Controls\u001b[31m\u202Eevil',
    recipient_phone: '6512345678',
    instruction: LONG_INSTRUCTION,
    custom_tracking_num: 'REF_^~<b>&amp;</b>',
    cash: 9999.99,
    cash_currency: 'SGD',
    item: Array.from({ length: 40 }, (_, i) =>
      item({
        description: `<img src=x onerror=alert(${i})> ^XZ ~JA ${'Very long description '.repeat(20)}`,
        itemHSCode: 'X'.repeat(255),
      }),
    ),
  },
  {
    lockerStation: {
      code: 'SGL^XZ',
      name: '<b>Locker</b> ~JA',
      address: 'W'.repeat(255),
      addressDetail: '\u0000\u0001',
      zipcode: '018984',
      distance: 1,
    },
  },
);

export const ALL = { sgLockerCod, myPickup, usExpress, selfLabel, noServiceType, jpNonLatin, hostile };

/** Each layout and the hard inputs, by the name a test shows: what the barcode readers must decode. */
export const SCANNED: [string, StoredParcelView][] = [
  ['LMD, locker, COD', sgLockerCod],
  ['PUD', myPickup],
  ['no service type', noServiceType],
  ['SLF (A6)', selfLabel],
  ['US (4 x 6 in)', usExpress],
  ['hostile input', hostile],
  ['non-Latin names', jpNonLatin],
];
