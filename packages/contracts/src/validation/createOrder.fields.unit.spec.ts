/**
 * One row per rule of the specification's Order table (interface B create-order) and of
 * decisions.md "Create-order validation": every top-level field, required / type / length /
 * format / range. Item rows and locker_station: createOrder.nested.unit.spec.ts.
 */
import type { Row } from '../../test/createOrder.fixtures.ts';
import { cases, check, DEL, other, pickupOrder, row, str, to } from '../../test/createOrder.fixtures.ts';

const OT = (field: string, rule: string) => `Order table, ${field} "${rule}"`;
const NUM = 'decisions "Numbers: JSON numbers; a numeric string is accepted as its number"';
const STR =
  'decisions "Strings are stored as sent (no trimming), but a string of only white space counts as empty for require"';

/** The Order table's "required": a missing field answers `<field> require`. */
const requires = (field: string): Row => row(OT(field, 'required'), 'missing', { [field]: DEL }, `${field} require`);

/** "required" where null, "" and white space (`blank`) count as missing too. */
const requiresContent = (field: string, blank: string): Row[] => [
  requires(field),
  ...cases(OT(field, 'required'), [
    ['null', { [field]: null }, `${field} require`],
    ['""', { [field]: '' }, `${field} require`],
  ]),
  row(STR, `${field} "${blank}"`, { [field]: blank }, `${field} require`),
];

/** A sender field the pickup service types require: missing from a PUD order answers `<field> require`. */
const requiresForPickup = (field: string): Row =>
  row(
    OT(field, 'required for pickup service types'),
    'PUD missing',
    { ...pickupOrder, [field]: DEL },
    `${field} require`,
  );

/** A length limit: `max` characters (`ch`) are stored as sent, one more answers `<field> invalid`. */
const atMost = (rule: string, field: string, max: number, ch = 'a', unit = 'chars'): Row[] =>
  cases(rule, [
    [`${max} ${unit}`, { [field]: str(max, ch) }, { [field]: str(max, ch) }],
    [`${max + 1} ${unit}`, { [field]: str(max + 1, ch) }, `${field} invalid`],
  ]);

/** Values a rule refuses, each answered `<field> invalid` (or `message`). */
const rejects = (rule: string, field: string, values: [desc: string, value: unknown][], message = `${field} invalid`) =>
  cases(
    rule,
    values.map(([desc, value]) => [desc, { [field]: value }, message]),
  );

const rows: Row[] = [
  // custom_tracking_num
  ...requiresContent('custom_tracking_num', '   '),
  ...cases(OT('custom_tracking_num', 'only letters, digits, -, _'), [
    ['number 12345', { custom_tracking_num: 12345 }, 'custom_tracking_num invalid'],
    ['"ab c"', { custom_tracking_num: 'ab c' }, 'custom_tracking_num invalid'],
    ['"ab.c"', { custom_tracking_num: 'ab.c' }, 'custom_tracking_num invalid'],
    ['"é1"', { custom_tracking_num: 'é1' }, 'custom_tracking_num invalid'],
    ['"A_b-9"', { custom_tracking_num: 'A_b-9' }, { custom_tracking_num: 'A_b-9' }],
  ]),
  ...atMost(OT('custom_tracking_num', 'max 32'), 'custom_tracking_num', 32, 'A'),
  // recipient_name
  requires('recipient_name'),
  ...atMost(OT('recipient_name', 'max 64'), 'recipient_name', 64),
  ...cases(OT('recipient_name', 'max 64'), [
    ['64 emoji (code points)', { recipient_name: str(64, '😀') }, { recipient_name: str(64, '😀') }],
    ['65 emoji (code points)', { recipient_name: str(65, '😀') }, 'recipient_name invalid'],
    ['number', { recipient_name: 42 }, 'recipient_name invalid'],
    ['lone surrogate', { recipient_name: 'Tan \ud800' }, 'recipient_name invalid'],
  ]),
  row(STR, 'recipient_name "  Tan  " stored untrimmed', { recipient_name: '  Tan  ' }, { recipient_name: '  Tan  ' }),
  // recipient_country
  requires('recipient_country'),
  ...rejects(OT('recipient_country', 'length 2, upper case'), 'recipient_country', [
    ['"sg"', 'sg'],
    ['"SGP"', 'SGP'],
    ['"S"', 'S'],
    ['number', 65],
  ]),
  ...cases(OT('recipient_country', 'must be in the allowed-country list'), [
    ['"GB"', { recipient_country: 'GB' }, 'recipient_country(GB) not allow'],
    ['"XX"', { recipient_country: 'XX' }, 'recipient_country(XX) not allow'],
    ['"TW"', { recipient_country: 'TW', postal_code: '100' }, { recipient_country: 'TW' }],
  ]),
  // recipient_phone
  requires('recipient_phone'),
  ...rejects(OT('recipient_phone', 'digits only; max 24'), 'recipient_phone', [
    ['"12a"', '12a'],
    ['"+6591234567"', '+6591234567'],
    ['"65 9123"', '65 9123'],
    ['number 6591234567', 6591234567],
  ]),
  ...atMost(OT('recipient_phone', 'digits only; max 24'), 'recipient_phone', 24, '1', 'digits'),
  // recipient_address
  requires('recipient_address'),
  ...atMost(OT('recipient_address', 'max 512'), 'recipient_address', 512),
  ...cases(OT('recipient_address', 'max 512'), [
    ['TAB, CR, LF kept', { recipient_address: 'a\tb\r\nc' }, { recipient_address: 'a\tb\r\nc' }],
  ]),
  // sender_country
  requires('sender_country'),
  ...cases(OT('sender_country', 'length 2, upper case'), [
    ['"hk"', { sender_country: 'hk' }, 'sender_country invalid'],
    ['"HKG"', { sender_country: 'HKG' }, 'sender_country invalid'],
    ['number', { sender_country: 852 }, 'sender_country invalid'],
    ['"GB" (no allowed list for senders)', { sender_country: 'GB' }, { sender_country: 'GB' }],
  ]),
  // client_size
  requires('client_size'),
  row(STR, 'client_size "  "', { client_size: '  ' }, 'client_size require'),
  ...rejects(
    OT('client_size', 'three comma-separated non-negative numbers'),
    'client_size',
    [
      ['"10,20"', '10,20'],
      ['"10,20,30,40"', '10,20,30,40'],
      ['"a,b,c"', 'a,b,c'],
      ['"-1,2,3"', '-1,2,3'],
      ['"10,,30"', '10,,30'],
      ['"1e2,1,1"', '1e2,1,1'],
      ['"10;20;30"', '10;20;30'],
      ['number', 102030],
      ['array', ['10', '20', '30']],
      ['control character', '10,20,30\u0000'],
    ],
    'Client Size invalid',
  ),
  ...cases(OT('client_size', 'max 30 characters'), [
    [
      '30 chars',
      { client_size: `${str(10, '1')},${str(9, '2')},${str(9, '3')}` },
      { client_size: `${str(10, '1')},${str(9, '3')},${str(9, '2')}` },
    ],
    ['31 chars', { client_size: `${str(10, '1')},${str(10, '2')},${str(9, '3')}` }, 'Client Size invalid'],
  ]),
  ...cases(OT('client_size', 'reordered from largest to smallest'), [
    ['"10, 20 ,30"', { client_size: '10, 20 ,30' }, { client_size: '30,20,10' }],
    ['"1.5,20,3"', { client_size: '1.5,20,3' }, { client_size: '20,3,1.5' }],
    ['"5,5,10"', { client_size: '5,5,10' }, { client_size: '10,5,5' }],
    ['"007,8,1" keeps each text', { client_size: '007,8,1' }, { client_size: '8,007,1' }],
  ]),
  row(OT('client_size', 'non-negative numbers'), '"0,0,0"', { client_size: '0,0,0' }, { client_size: '0,0,0' }),
  // client_weight
  ...requiresContent('client_weight', '  '),
  ...cases(OT('client_weight', 'range 0 to 9999'), [
    ['0', { client_weight: 0 }, { client_weight: 0 }],
    ['9999', { client_weight: 9999 }, { client_weight: 9999 }],
    ['-0.01', { client_weight: -0.01 }, 'client_weight invalid'],
    ['9999.0001', { client_weight: 9999.0001 }, 'client_weight invalid'],
    ['1e308', { client_weight: 1e308 }, 'client_weight invalid'],
  ]),
  ...cases(NUM, [
    ['client_weight "12.5"', { client_weight: '12.5' }, { client_weight: 12.5 }],
    ['client_weight "-0" -> 0', { client_weight: '-0' }, { client_weight: 0 }],
    ['client_weight "abc"', { client_weight: 'abc' }, 'client_weight invalid'],
    ['client_weight "1e3"', { client_weight: '1e3' }, 'client_weight invalid'],
    ['client_weight " 5"', { client_weight: ' 5' }, 'client_weight invalid'],
    ['client_weight "Infinity"', { client_weight: 'Infinity' }, 'client_weight invalid'],
    ['client_weight "0x10"', { client_weight: '0x10' }, 'client_weight invalid'],
    ['client_weight 400 digits', { client_weight: str(400, '9') }, 'client_weight invalid'],
    ['client_weight true', { client_weight: true }, 'client_weight invalid'],
    ['client_weight {}', { client_weight: {} }, 'client_weight invalid'],
    ['client_weight []', { client_weight: [] }, 'client_weight invalid'],
  ]),
  // declared_value
  requires('declared_value'),
  ...cases(OT('declared_value', 'range 0 to 9999.99'), [
    ['0', { declared_value: 0 }, { declared_value: 0 }],
    ['9999.99', { declared_value: 9999.99 }, { declared_value: 9999.99 }],
    ['9999.991', { declared_value: 9999.991 }, 'declared_value invalid'],
    ['10000', { declared_value: 10000 }, 'declared_value invalid'],
    ['-1', { declared_value: -1 }, 'declared_value invalid'],
  ]),
  ...cases(NUM, [
    ['declared_value "9999.99"', { declared_value: '9999.99' }, { declared_value: 9999.99 }],
    ['declared_value false', { declared_value: false }, 'declared_value invalid'],
  ]),
  // declared_value_currency
  row(
    OT('declared_value_currency', 'required'),
    'missing',
    { declared_value_currency: DEL },
    'declared_value_currency require',
  ),
  ...cases(OT('declared_value_currency', 'length 3'), [
    ['"sgd"', { declared_value_currency: 'sgd' }, 'declared_value_currency invalid'],
    ['"SG"', { declared_value_currency: 'SG' }, 'declared_value_currency invalid'],
    ['"SGDD"', { declared_value_currency: 'SGDD' }, 'declared_value_currency invalid'],
    ['number 702', { declared_value_currency: 702 }, 'declared_value_currency invalid'],
    ['"USD"', { declared_value_currency: 'USD' }, { declared_value_currency: 'USD' }],
  ]),
  // postal_code
  ...cases(OT('postal_code', 'required for every destination except HK'), [
    ['SG missing', { postal_code: DEL }, 'postal_code require'],
    ['SG "  "', { postal_code: '  ' }, 'postal_code require'],
    ['US missing', { ...to.US, postal_code: DEL }, 'postal_code require'],
    ['HK missing', to.HK, { postal_code: DEL }],
  ]),
  ...cases(OT('postal_code', 'Non-digit characters are stripped first'), [
    ['SG "04-8618"', { postal_code: '04-8618' }, { postal_code: '048618' }],
    ['SG "S(048 618)"', { postal_code: 'S(048 618)' }, { postal_code: '048618' }],
    ['SG number 48618 (not a string)', { postal_code: 48618 }, 'postal_code invalid'],
    ['SG "abc" (no digits)', { postal_code: 'abc' }, 'postal_code invalid'],
  ]),
  ...cases(OT('postal_code', 'SG 5-6'), [
    ['"12345"', { postal_code: '12345' }, { postal_code: '12345' }],
    ['"1234"', { postal_code: '1234' }, 'postal_code invalid'],
    ['"1234567"', { postal_code: '1234567' }, 'postal_code invalid'],
  ]),
  ...cases(OT('postal_code', 'MY 4-5'), [
    ['"5045"', { ...to.MY, postal_code: '5045' }, { postal_code: '5045' }],
    ['"50450"', to.MY, { postal_code: '50450' }],
    ['"504"', { ...to.MY, postal_code: '504' }, 'postal_code invalid'],
    ['"504501"', { ...to.MY, postal_code: '504501' }, 'postal_code invalid'],
  ]),
  ...cases(OT('postal_code', 'KR 4-5'), [
    ['"0452"', { ...to.KR, postal_code: '0452' }, { postal_code: '0452' }],
    ['"045241"', { ...to.KR, postal_code: '045241' }, 'postal_code invalid'],
    ['"045"', { ...to.KR, postal_code: '045' }, 'postal_code invalid'],
  ]),
  ...cases(OT('postal_code', 'JP 5-7'), [
    ['"100-0001"', to.JP, { postal_code: '1000001' }],
    ['"12345"', { ...to.JP, postal_code: '12345' }, { postal_code: '12345' }],
    ['"1234"', { ...to.JP, postal_code: '1234' }, 'postal_code invalid'],
    ['"123-45678"', { ...to.JP, postal_code: '123-45678' }, 'postal_code invalid'],
  ]),
  ...cases(OT('postal_code', 'all others 3-10'), [
    ['AU "200"', { ...to.AU, postal_code: '200' }, { postal_code: '200' }],
    ['AU "20"', { ...to.AU, postal_code: '20' }, 'postal_code invalid'],
    ['AU 10 digits', { ...to.AU, postal_code: str(10, '1') }, { postal_code: str(10, '1') }],
    ['AU 11 digits', { ...to.AU, postal_code: str(11, '1') }, 'postal_code invalid'],
    ['HK sent "999077"', { ...to.HK, postal_code: '999077' }, { postal_code: '999077' }],
    ['HK sent "12"', { ...to.HK, postal_code: '12' }, 'postal_code invalid'],
  ]),
  // recipient_state
  ...cases(OT('recipient_state', 'required when recipient_country = US'), [
    ['US missing', { ...to.US, recipient_state: DEL }, 'recipient_state require'],
    ['US "  "', { ...to.US, recipient_state: '  ' }, 'recipient_state require'],
    ['SG missing', {}, { recipient_state: DEL }],
  ]),
  ...cases(OT('recipient_state', 'max 60'), [
    ['US 60 chars', { ...to.US, recipient_state: str(60) }, { recipient_state: str(60) }],
    ['US 61 chars', { ...to.US, recipient_state: str(61) }, 'recipient_state invalid'],
    ['SG 61 chars', { recipient_state: str(61) }, 'recipient_state invalid'],
  ]),
  // recipient_city, recipient_email
  ...atMost(OT('recipient_city', 'max 64'), 'recipient_city', 64),
  ...cases(OT('recipient_city', 'max 64'), [['number', { recipient_city: 5 }, 'recipient_city invalid']]),
  row(STR, 'optional recipient_city "  " is not stored', { recipient_city: '  ' }, { recipient_city: DEL }),
  row(OT('recipient_city', 'optional'), 'null is not stored', { recipient_city: null }, { recipient_city: DEL }),
  ...cases(OT('recipient_email', 'max 320'), [
    ['"a@b"', { recipient_email: 'a@b' }, { recipient_email: 'a@b' }],
    ['320 chars', { recipient_email: `a@${str(318)}` }, { recipient_email: `a@${str(318)}` }],
    ['321 chars', { recipient_email: `a@${str(319)}` }, 'recipient_email invalid'],
  ]),
  ...rejects(OT('recipient_email', 'light format check'), 'recipient_email', [
    ['"ab"', 'ab'],
    ['"a@b@c"', 'a@b@c'],
    ['"@b"', '@b'],
    ['"a@"', 'a@'],
    ['"a b@c"', 'a b@c'],
  ]),
  // sender_* (pickup rules)
  requiresForPickup('sender_name'),
  ...cases(OT('sender_name', 'required for pickup service types'), [
    ['PUD "  "', { ...pickupOrder, sender_name: '  ' }, 'sender_name require'],
    ['LMD missing', { service_type: 'LMD' }, { sender_name: DEL }],
  ]),
  ...cases(OT('sender_name', 'max 64'), [
    ['64 chars', { sender_name: str(64) }, { sender_name: str(64) }],
    ['non-pickup 65 chars', { sender_name: str(65) }, 'sender_name invalid'],
  ]),
  requiresForPickup('sender_phone'),
  ...cases(OT('sender_phone', 'digits only; max 24'), [
    ['non-pickup "12a"', { sender_phone: '12a' }, 'sender_phone invalid'],
  ]),
  ...atMost(OT('sender_phone', 'digits only; max 24'), 'sender_phone', 24, '1', 'digits'),
  requiresForPickup('sender_address'),
  ...cases(OT('sender_address', 'max 512'), [
    ['512 chars with LF', { sender_address: `${str(510)}\r\n` }, { sender_address: `${str(510)}\r\n` }],
    ['513 chars', { sender_address: str(513) }, 'sender_address invalid'],
  ]),
  ...cases(OT('sender_postal_code', 'for pickup service types required unless sender_country = HK'), [
    ['PUD sender SG missing', { ...pickupOrder, sender_postal_code: DEL }, 'sender_postal_code require'],
    [
      'PUD sender HK missing',
      { ...pickupOrder, sender_country: 'HK', sender_postal_code: DEL },
      { service_type: 'PUD', sender_postal_code: DEL },
    ],
  ]),
  row(
    OT('sender_postal_code', 'optional otherwise'),
    'LMD sender SG missing',
    { sender_country: 'SG' },
    { sender_postal_code: DEL },
  ),
  ...cases(OT('sender_postal_code', 'length 3-10'), [
    ['"12"', { sender_postal_code: '12' }, 'sender_postal_code invalid'],
    ['"123"', { sender_postal_code: '123' }, { sender_postal_code: '123' }],
    ['"AB1 2CD" stored as sent', { sender_postal_code: 'AB1 2CD' }, { sender_postal_code: 'AB1 2CD' }],
  ]),
  ...atMost(OT('sender_postal_code', 'length 3-10'), 'sender_postal_code', 10, '1'),
  ...cases(OT('sender_postal_code', 'length 3-10'), [
    ['number', { sender_postal_code: 12345 }, 'sender_postal_code invalid'],
  ]),
  ...atMost(OT('sender_city', 'max 64'), 'sender_city', 64),
  ...cases(OT('sender_email', 'max 320'), [
    ['320 chars', { sender_email: `${str(318)}@b` }, { sender_email: `${str(318)}@b` }],
    ['321 chars', { sender_email: `${str(319)}@b` }, 'sender_email invalid'],
    ['"no-at-sign"', { sender_email: 'no-at-sign' }, 'sender_email invalid'],
  ]),
  // service_type
  row(
    OT('service_type', 'code assigned to the account'),
    '"LMD" kept',
    { service_type: 'LMD' },
    { service_type: 'LMD' },
  ),
  row(
    OT('service_type', 'when omitted the order is handled as last mile only'),
    'omitted: not stored',
    {},
    { service_type: DEL },
  ),
  ...rejects(OT('service_type', 'length 3'), 'service_type', [
    ['"LM"', 'LM'],
    ['"LMDD"', 'LMDD'],
    ['number', 123],
  ]),
  ...rejects(OT('service_type', 'code assigned to the account'), 'service_type', [
    ['"XYZ" (unknown)', 'XYZ'],
    ['"lmd"', 'lmd'],
  ]),
  ...cases('decisions "A service_type not assigned to the account: service_type invalid"', [
    ['other account "SLF"', { service_type: 'SLF' }, 'service_type invalid', other],
    ['other account "PUD" with sender fields', pickupOrder, 'service_type invalid', other],
  ]),
  row(
    OT('service_type', 'pickup types also require the sender_* fields'),
    'other account "PUD" without sender fields (pickup read from the raw type)',
    { service_type: 'PUD' },
    'sender_name require',
    other,
  ),
  ...cases('decisions "PUD to LMX-PU (recipient SG or MY only, else service_type invalid)"', [
    ['PUD to JP', { ...to.JP, ...pickupOrder }, 'service_type invalid'],
    ['PUD to MY', { ...to.MY, ...pickupOrder }, { service_type: 'PUD' }],
  ]),
  // service_code
  ...cases(OT('service_code', 'Required and must be valid when recipient_country = US'), [
    ['US missing', { ...to.US, service_code: DEL }, 'Service code invalid'],
    ['US "  "', { ...to.US, service_code: '  ' }, 'Service code invalid'],
    ['US "XXX"', { ...to.US, service_code: 'XXX' }, 'Service code invalid'],
    ['US "usg"', { ...to.US, service_code: 'usg' }, 'Service code invalid'],
    ['US number', { ...to.US, service_code: 123 }, 'Service code invalid'],
    ['US "USE" kept', { ...to.US, service_code: 'USE' }, { service_code: 'USE' }],
  ]),
  ...cases(OT('service_code', 'optional for SG but must be valid if sent'), [
    ['SG "XXX"', { service_code: 'XXX' }, 'Service code (XXX) invalid'],
    ['SG number 123', { service_code: 123 }, 'Service code (123) invalid'],
    ['SG "SGN" kept', { service_code: 'SGN' }, { service_code: 'SGN' }],
    ['SG missing', {}, { service_code: DEL }],
    ['SG "  " not stored', { service_code: '  ' }, { service_code: DEL }],
  ]),
  ...cases(OT('service_code', 'ignored for every other destination'), [
    ['JP "XXX" not validated, not kept', { ...to.JP, service_code: 'XXX' }, { service_code: DEL }],
    ['MY {} not validated, not kept', { ...to.MY, service_code: {} }, { service_code: DEL }],
  ]),
  // instruction
  ...atMost(OT('instruction', 'max 1024'), 'instruction', 1024),
  ...cases(OT('instruction', 'max 1024'), [
    [
      'TAB, CR, LF kept as sent',
      { instruction: ' [sandbox:no-partner]\r\n\tLeave ' },
      { instruction: ' [sandbox:no-partner]\r\n\tLeave ' },
    ],
    ['number', { instruction: 1 }, 'instruction invalid'],
  ]),
  // cash, cash_currency
  ...cases(OT('cash', 'requires cash_currency'), [
    ['cash 10 SGD', { cash: 10, cash_currency: 'SGD' }, { cash: 10, cash_currency: 'SGD' }],
    ['cash missing, cash_currency "SGD"', { cash_currency: 'SGD' }, 'cash require'],
    ['cash missing, cash_currency "bad" (cash comes first)', { cash_currency: 'bad' }, 'cash require'],
  ]),
  ...cases(OT('cash_currency', 'requires cash'), [
    ['cash 10, cash_currency missing', { cash: 10 }, 'cash_currency require'],
    ['cash 0, cash_currency "  "', { cash: 0, cash_currency: '  ' }, 'cash_currency require'],
  ]),
  ...cases(OT('cash', '0 to 9999.99'), [
    ['-0.01', { cash: -0.01, cash_currency: 'SGD' }, 'cash invalid'],
    ['0', { cash: 0, cash_currency: 'SGD' }, { cash: 0 }],
    ['9999.99', { cash: 9999.99, cash_currency: 'SGD' }, { cash: 9999.99 }],
    ['10000', { cash: 10000, cash_currency: 'SGD' }, 'cash invalid'],
  ]),
  ...cases(NUM, [
    ['cash "10.5"', { cash: '10.5', cash_currency: 'SGD' }, { cash: 10.5 }],
    ['cash "ten"', { cash: 'ten', cash_currency: 'SGD' }, 'cash invalid'],
  ]),
  ...cases(OT('cash_currency', 'must be SGD when recipient_country = SG'), [
    ['SG "USD"', { cash: 10, cash_currency: 'USD' }, 'cash_currency invalid'],
    ['MY "USD"', { ...to.MY, cash: 10, cash_currency: 'USD' }, { cash_currency: 'USD' }],
  ]),
  ...cases(OT('cash_currency', 'length 3'), [
    ['"sgd"', { cash: 10, cash_currency: 'sgd' }, 'cash_currency invalid'],
    ['MY "USDX"', { ...to.MY, cash: 10, cash_currency: 'USDX' }, 'cash_currency invalid'],
  ]),
  // supplier_*, gst, incoterm
  ...atMost(OT('supplier_name', 'max 64'), 'supplier_name', 64),
  ...atMost(OT('supplier_gstn', 'max 64'), 'supplier_gstn', 64),
  ...cases(OT('total_gst_amount', '0 to 9999.99'), [
    ['0', { total_gst_amount: 0 }, { total_gst_amount: 0 }],
    ['9999.99', { total_gst_amount: 9999.99 }, { total_gst_amount: 9999.99 }],
    ['10000', { total_gst_amount: 10000 }, 'total_gst_amount invalid'],
    ['-1', { total_gst_amount: -1 }, 'total_gst_amount invalid'],
  ]),
  row(NUM, 'total_gst_amount "7.5"', { total_gst_amount: '7.5' }, { total_gst_amount: 7.5 }),
  ...cases(OT('gst_currency', 'length 3'), [
    ['"USD"', { gst_currency: 'USD' }, { gst_currency: 'USD' }],
    ['"usd"', { gst_currency: 'usd' }, 'gst_currency invalid'],
    ['"US"', { gst_currency: 'US' }, 'gst_currency invalid'],
  ]),
  ...cases(OT('gst_paid', 'Y or N'), [
    ['"Y"', { gst_paid: 'Y' }, { gst_paid: 'Y' }],
    ['"N"', { gst_paid: 'N' }, { gst_paid: 'N' }],
    ['"y"', { gst_paid: 'y' }, 'gst_paid invalid'],
    ['"YES"', { gst_paid: 'YES' }, 'gst_paid invalid'],
    ['true', { gst_paid: true }, 'gst_paid invalid'],
  ]),
  ...cases(OT('incoterm_type', 'DDU or DDP'), [
    ['"DDU"', { incoterm_type: 'DDU' }, { incoterm_type: 'DDU' }],
    ['"DDP"', { incoterm_type: 'DDP' }, { incoterm_type: 'DDP' }],
    ['"ddp"', { incoterm_type: 'ddp' }, 'incoterm_type invalid'],
    ['"EXW"', { incoterm_type: 'EXW' }, 'incoterm_type invalid'],
  ]),
  // locker_type (locker_station: nested spec)
  ...rejects(OT('locker_type', 'only A and B accepted'), 'locker_type', [
    ['"C"', 'C'],
    ['"a"', 'a'],
    ['number', 1],
  ]),
];

describe('validateCreateOrder: Order table fields', () => {
  test.each(rows)('$name', check);
});
