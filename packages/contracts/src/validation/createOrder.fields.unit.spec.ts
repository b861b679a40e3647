/**
 * One row per rule of the specification's Order table (interface B create-order) and of
 * decisions.md "Create-order validation": every top-level field, required / type / length /
 * format / range. Item rows and locker_station: createOrder.nested.unit.spec.ts.
 */
import type { Account } from '@parcel/reference-data';
import type { Body } from '../../test/createOrder.fixtures.ts';
import { DEL, demo, order, other, pickupOrder, run, str, to } from '../../test/createOrder.fixtures.ts';

interface Row {
  name: string;
  body: Body;
  account: Account;
  /** A failure message, or the expected subset of the stored order (`DEL` = not stored). */
  expected: string | Body;
}

const OT = (field: string, rule: string) => `Order table, ${field} "${rule}"`;
const NUM = 'decisions "Numbers: JSON numbers; a numeric string is accepted as its number"';
const STR = 'decisions "Strings are stored as sent (no trimming), but a string of only white space counts as empty for require"';

const row = (rule: string, desc: string, patch: Body, expected: string | Body, account: Account = demo): Row => ({
  name: `${rule}: ${desc} -> ${typeof expected === 'string' ? expected : `ok ${JSON.stringify(expected)}`.slice(0, 120)}`,
  body: order(patch),
  account,
  expected,
});

function check({ body, account, expected }: Row): void {
  const result = run(body, account);
  if (typeof expected === 'string') {
    expect(result).toEqual({ ok: false, message: expected });
    return;
  }
  if (!result.ok) throw new Error(`expected ok, got "${result.message}"`);
  const stored = result.order as unknown as Body;
  for (const [k, v] of Object.entries(expected)) {
    if (v === DEL) expect(Object.hasOwn(stored, k)).toBe(false);
    else expect(stored[k]).toEqual(v);
  }
}

const rows: Row[] = [
  // custom_tracking_num
  row(OT('custom_tracking_num', 'required'), 'missing', { custom_tracking_num: DEL }, 'custom_tracking_num require'),
  row(OT('custom_tracking_num', 'required'), 'null', { custom_tracking_num: null }, 'custom_tracking_num require'),
  row(OT('custom_tracking_num', 'required'), '""', { custom_tracking_num: '' }, 'custom_tracking_num require'),
  row(STR, 'custom_tracking_num "   "', { custom_tracking_num: '   ' }, 'custom_tracking_num require'),
  row(OT('custom_tracking_num', 'only letters, digits, -, _'), 'number 12345', { custom_tracking_num: 12345 }, 'custom_tracking_num invalid'),
  row(OT('custom_tracking_num', 'only letters, digits, -, _'), '"ab c"', { custom_tracking_num: 'ab c' }, 'custom_tracking_num invalid'),
  row(OT('custom_tracking_num', 'only letters, digits, -, _'), '"ab.c"', { custom_tracking_num: 'ab.c' }, 'custom_tracking_num invalid'),
  row(OT('custom_tracking_num', 'only letters, digits, -, _'), '"é1"', { custom_tracking_num: 'é1' }, 'custom_tracking_num invalid'),
  row(OT('custom_tracking_num', 'only letters, digits, -, _'), '"A_b-9"', { custom_tracking_num: 'A_b-9' }, { custom_tracking_num: 'A_b-9' }),
  row(OT('custom_tracking_num', 'max 32'), '32 chars', { custom_tracking_num: str(32, 'A') }, { custom_tracking_num: str(32, 'A') }),
  row(OT('custom_tracking_num', 'max 32'), '33 chars', { custom_tracking_num: str(33, 'A') }, 'custom_tracking_num invalid'),
  // recipient_name
  row(OT('recipient_name', 'required'), 'missing', { recipient_name: DEL }, 'recipient_name require'),
  row(OT('recipient_name', 'max 64'), '64 chars', { recipient_name: str(64) }, { recipient_name: str(64) }),
  row(OT('recipient_name', 'max 64'), '65 chars', { recipient_name: str(65) }, 'recipient_name invalid'),
  row(OT('recipient_name', 'max 64'), '64 emoji (code points)', { recipient_name: str(64, '😀') }, { recipient_name: str(64, '😀') }),
  row(OT('recipient_name', 'max 64'), '65 emoji (code points)', { recipient_name: str(65, '😀') }, 'recipient_name invalid'),
  row(OT('recipient_name', 'max 64'), 'number', { recipient_name: 42 }, 'recipient_name invalid'),
  row(OT('recipient_name', 'max 64'), 'lone surrogate', { recipient_name: 'Tan \ud800' }, 'recipient_name invalid'),
  row(STR, 'recipient_name "  Tan  " stored untrimmed', { recipient_name: '  Tan  ' }, { recipient_name: '  Tan  ' }),
  // recipient_country
  row(OT('recipient_country', 'required'), 'missing', { recipient_country: DEL }, 'recipient_country require'),
  row(OT('recipient_country', 'length 2, upper case'), '"sg"', { recipient_country: 'sg' }, 'recipient_country invalid'),
  row(OT('recipient_country', 'length 2, upper case'), '"SGP"', { recipient_country: 'SGP' }, 'recipient_country invalid'),
  row(OT('recipient_country', 'length 2, upper case'), '"S"', { recipient_country: 'S' }, 'recipient_country invalid'),
  row(OT('recipient_country', 'length 2, upper case'), 'number', { recipient_country: 65 }, 'recipient_country invalid'),
  row(OT('recipient_country', 'must be in the allowed-country list'), '"GB"', { recipient_country: 'GB' }, 'recipient_country(GB) not allow'),
  row(OT('recipient_country', 'must be in the allowed-country list'), '"XX"', { recipient_country: 'XX' }, 'recipient_country(XX) not allow'),
  row(OT('recipient_country', 'must be in the allowed-country list'), '"TW"', { recipient_country: 'TW', postal_code: '100' }, { recipient_country: 'TW' }),
  // recipient_phone
  row(OT('recipient_phone', 'required'), 'missing', { recipient_phone: DEL }, 'recipient_phone require'),
  row(OT('recipient_phone', 'digits only; max 24'), '"12a"', { recipient_phone: '12a' }, 'recipient_phone invalid'),
  row(OT('recipient_phone', 'digits only; max 24'), '"+6591234567"', { recipient_phone: '+6591234567' }, 'recipient_phone invalid'),
  row(OT('recipient_phone', 'digits only; max 24'), '"65 9123"', { recipient_phone: '65 9123' }, 'recipient_phone invalid'),
  row(OT('recipient_phone', 'digits only; max 24'), 'number 6591234567', { recipient_phone: 6591234567 }, 'recipient_phone invalid'),
  row(OT('recipient_phone', 'digits only; max 24'), '24 digits', { recipient_phone: str(24, '1') }, { recipient_phone: str(24, '1') }),
  row(OT('recipient_phone', 'digits only; max 24'), '25 digits', { recipient_phone: str(25, '1') }, 'recipient_phone invalid'),
  // recipient_address
  row(OT('recipient_address', 'required'), 'missing', { recipient_address: DEL }, 'recipient_address require'),
  row(OT('recipient_address', 'max 512'), '512 chars', { recipient_address: str(512) }, { recipient_address: str(512) }),
  row(OT('recipient_address', 'max 512'), '513 chars', { recipient_address: str(513) }, 'recipient_address invalid'),
  row(OT('recipient_address', 'max 512'), 'TAB, CR, LF kept', { recipient_address: 'a\tb\r\nc' }, { recipient_address: 'a\tb\r\nc' }),
  // sender_country
  row(OT('sender_country', 'required'), 'missing', { sender_country: DEL }, 'sender_country require'),
  row(OT('sender_country', 'length 2, upper case'), '"hk"', { sender_country: 'hk' }, 'sender_country invalid'),
  row(OT('sender_country', 'length 2, upper case'), '"HKG"', { sender_country: 'HKG' }, 'sender_country invalid'),
  row(OT('sender_country', 'length 2, upper case'), 'number', { sender_country: 852 }, 'sender_country invalid'),
  row(OT('sender_country', 'length 2, upper case'), '"GB" (no allowed list for senders)', { sender_country: 'GB' }, { sender_country: 'GB' }),
  // client_size
  row(OT('client_size', 'required'), 'missing', { client_size: DEL }, 'client_size require'),
  row(STR, 'client_size "  "', { client_size: '  ' }, 'client_size require'),
  row(OT('client_size', 'three comma-separated non-negative numbers'), '"10,20"', { client_size: '10,20' }, 'Client Size invalid'),
  row(OT('client_size', 'three comma-separated non-negative numbers'), '"10,20,30,40"', { client_size: '10,20,30,40' }, 'Client Size invalid'),
  row(OT('client_size', 'three comma-separated non-negative numbers'), '"a,b,c"', { client_size: 'a,b,c' }, 'Client Size invalid'),
  row(OT('client_size', 'three comma-separated non-negative numbers'), '"-1,2,3"', { client_size: '-1,2,3' }, 'Client Size invalid'),
  row(OT('client_size', 'three comma-separated non-negative numbers'), '"10,,30"', { client_size: '10,,30' }, 'Client Size invalid'),
  row(OT('client_size', 'three comma-separated non-negative numbers'), '"1e2,1,1"', { client_size: '1e2,1,1' }, 'Client Size invalid'),
  row(OT('client_size', 'three comma-separated non-negative numbers'), '"10;20;30"', { client_size: '10;20;30' }, 'Client Size invalid'),
  row(OT('client_size', 'three comma-separated non-negative numbers'), 'number', { client_size: 102030 }, 'Client Size invalid'),
  row(OT('client_size', 'three comma-separated non-negative numbers'), 'array', { client_size: ['10', '20', '30'] }, 'Client Size invalid'),
  row(OT('client_size', 'three comma-separated non-negative numbers'), 'control character', { client_size: '10,20,30\u0000' }, 'Client Size invalid'),
  row(OT('client_size', 'max 30 characters'), '30 chars', { client_size: `${str(10, '1')},${str(9, '2')},${str(9, '3')}` }, { client_size: `${str(10, '1')},${str(9, '3')},${str(9, '2')}` }),
  row(OT('client_size', 'max 30 characters'), '31 chars', { client_size: `${str(10, '1')},${str(10, '2')},${str(9, '3')}` }, 'Client Size invalid'),
  row(OT('client_size', 'reordered from largest to smallest'), '"10, 20 ,30"', { client_size: '10, 20 ,30' }, { client_size: '30,20,10' }),
  row(OT('client_size', 'reordered from largest to smallest'), '"1.5,20,3"', { client_size: '1.5,20,3' }, { client_size: '20,3,1.5' }),
  row(OT('client_size', 'reordered from largest to smallest'), '"5,5,10"', { client_size: '5,5,10' }, { client_size: '10,5,5' }),
  row(OT('client_size', 'reordered from largest to smallest'), '"007,8,1" keeps each text', { client_size: '007,8,1' }, { client_size: '8,007,1' }),
  row(OT('client_size', 'non-negative numbers'), '"0,0,0"', { client_size: '0,0,0' }, { client_size: '0,0,0' }),
  // client_weight
  row(OT('client_weight', 'required'), 'missing', { client_weight: DEL }, 'client_weight require'),
  row(OT('client_weight', 'required'), 'null', { client_weight: null }, 'client_weight require'),
  row(OT('client_weight', 'required'), '""', { client_weight: '' }, 'client_weight require'),
  row(STR, 'client_weight "  "', { client_weight: '  ' }, 'client_weight require'),
  row(OT('client_weight', 'range 0 to 9999'), '0', { client_weight: 0 }, { client_weight: 0 }),
  row(OT('client_weight', 'range 0 to 9999'), '9999', { client_weight: 9999 }, { client_weight: 9999 }),
  row(OT('client_weight', 'range 0 to 9999'), '-0.01', { client_weight: -0.01 }, 'client_weight invalid'),
  row(OT('client_weight', 'range 0 to 9999'), '9999.0001', { client_weight: 9999.0001 }, 'client_weight invalid'),
  row(OT('client_weight', 'range 0 to 9999'), '1e308', { client_weight: 1e308 }, 'client_weight invalid'),
  row(NUM, 'client_weight "12.5"', { client_weight: '12.5' }, { client_weight: 12.5 }),
  row(NUM, 'client_weight "-0" -> 0', { client_weight: '-0' }, { client_weight: 0 }),
  row(NUM, 'client_weight "abc"', { client_weight: 'abc' }, 'client_weight invalid'),
  row(NUM, 'client_weight "1e3"', { client_weight: '1e3' }, 'client_weight invalid'),
  row(NUM, 'client_weight " 5"', { client_weight: ' 5' }, 'client_weight invalid'),
  row(NUM, 'client_weight "Infinity"', { client_weight: 'Infinity' }, 'client_weight invalid'),
  row(NUM, 'client_weight "0x10"', { client_weight: '0x10' }, 'client_weight invalid'),
  row(NUM, 'client_weight 400 digits', { client_weight: str(400, '9') }, 'client_weight invalid'),
  row(NUM, 'client_weight true', { client_weight: true }, 'client_weight invalid'),
  row(NUM, 'client_weight {}', { client_weight: {} }, 'client_weight invalid'),
  row(NUM, 'client_weight []', { client_weight: [] }, 'client_weight invalid'),
  // declared_value
  row(OT('declared_value', 'required'), 'missing', { declared_value: DEL }, 'declared_value require'),
  row(OT('declared_value', 'range 0 to 9999.99'), '0', { declared_value: 0 }, { declared_value: 0 }),
  row(OT('declared_value', 'range 0 to 9999.99'), '9999.99', { declared_value: 9999.99 }, { declared_value: 9999.99 }),
  row(OT('declared_value', 'range 0 to 9999.99'), '9999.991', { declared_value: 9999.991 }, 'declared_value invalid'),
  row(OT('declared_value', 'range 0 to 9999.99'), '10000', { declared_value: 10000 }, 'declared_value invalid'),
  row(OT('declared_value', 'range 0 to 9999.99'), '-1', { declared_value: -1 }, 'declared_value invalid'),
  row(NUM, 'declared_value "9999.99"', { declared_value: '9999.99' }, { declared_value: 9999.99 }),
  row(NUM, 'declared_value false', { declared_value: false }, 'declared_value invalid'),
  // declared_value_currency
  row(OT('declared_value_currency', 'required'), 'missing', { declared_value_currency: DEL }, 'declared_value_currency require'),
  row(OT('declared_value_currency', 'length 3'), '"sgd"', { declared_value_currency: 'sgd' }, 'declared_value_currency invalid'),
  row(OT('declared_value_currency', 'length 3'), '"SG"', { declared_value_currency: 'SG' }, 'declared_value_currency invalid'),
  row(OT('declared_value_currency', 'length 3'), '"SGDD"', { declared_value_currency: 'SGDD' }, 'declared_value_currency invalid'),
  row(OT('declared_value_currency', 'length 3'), 'number 702', { declared_value_currency: 702 }, 'declared_value_currency invalid'),
  row(OT('declared_value_currency', 'length 3'), '"USD"', { declared_value_currency: 'USD' }, { declared_value_currency: 'USD' }),
  // postal_code
  row(OT('postal_code', 'required for every destination except HK'), 'SG missing', { postal_code: DEL }, 'postal_code require'),
  row(OT('postal_code', 'required for every destination except HK'), 'SG "  "', { postal_code: '  ' }, 'postal_code require'),
  row(OT('postal_code', 'required for every destination except HK'), 'US missing', { ...to.US, postal_code: DEL }, 'postal_code require'),
  row(OT('postal_code', 'required for every destination except HK'), 'HK missing', to.HK, { postal_code: DEL }),
  row(OT('postal_code', 'Non-digit characters are stripped first'), 'SG "04-8618"', { postal_code: '04-8618' }, { postal_code: '048618' }),
  row(OT('postal_code', 'Non-digit characters are stripped first'), 'SG "S(048 618)"', { postal_code: 'S(048 618)' }, { postal_code: '048618' }),
  row(OT('postal_code', 'Non-digit characters are stripped first'), 'SG number 48618 (not a string)', { postal_code: 48618 }, 'postal_code invalid'),
  row(OT('postal_code', 'Non-digit characters are stripped first'), 'SG "abc" (no digits)', { postal_code: 'abc' }, 'postal_code invalid'),
  row(OT('postal_code', 'SG 5-6'), '"12345"', { postal_code: '12345' }, { postal_code: '12345' }),
  row(OT('postal_code', 'SG 5-6'), '"1234"', { postal_code: '1234' }, 'postal_code invalid'),
  row(OT('postal_code', 'SG 5-6'), '"1234567"', { postal_code: '1234567' }, 'postal_code invalid'),
  row(OT('postal_code', 'MY 4-5'), '"5045"', { ...to.MY, postal_code: '5045' }, { postal_code: '5045' }),
  row(OT('postal_code', 'MY 4-5'), '"50450"', to.MY, { postal_code: '50450' }),
  row(OT('postal_code', 'MY 4-5'), '"504"', { ...to.MY, postal_code: '504' }, 'postal_code invalid'),
  row(OT('postal_code', 'MY 4-5'), '"504501"', { ...to.MY, postal_code: '504501' }, 'postal_code invalid'),
  row(OT('postal_code', 'KR 4-5'), '"0452"', { ...to.KR, postal_code: '0452' }, { postal_code: '0452' }),
  row(OT('postal_code', 'KR 4-5'), '"045241"', { ...to.KR, postal_code: '045241' }, 'postal_code invalid'),
  row(OT('postal_code', 'KR 4-5'), '"045"', { ...to.KR, postal_code: '045' }, 'postal_code invalid'),
  row(OT('postal_code', 'JP 5-7'), '"100-0001"', to.JP, { postal_code: '1000001' }),
  row(OT('postal_code', 'JP 5-7'), '"12345"', { ...to.JP, postal_code: '12345' }, { postal_code: '12345' }),
  row(OT('postal_code', 'JP 5-7'), '"1234"', { ...to.JP, postal_code: '1234' }, 'postal_code invalid'),
  row(OT('postal_code', 'JP 5-7'), '"123-45678"', { ...to.JP, postal_code: '123-45678' }, 'postal_code invalid'),
  row(OT('postal_code', 'all others 3-10'), 'AU "200"', { ...to.AU, postal_code: '200' }, { postal_code: '200' }),
  row(OT('postal_code', 'all others 3-10'), 'AU "20"', { ...to.AU, postal_code: '20' }, 'postal_code invalid'),
  row(OT('postal_code', 'all others 3-10'), 'AU 10 digits', { ...to.AU, postal_code: str(10, '1') }, { postal_code: str(10, '1') }),
  row(OT('postal_code', 'all others 3-10'), 'AU 11 digits', { ...to.AU, postal_code: str(11, '1') }, 'postal_code invalid'),
  row(OT('postal_code', 'all others 3-10'), 'HK sent "999077"', { ...to.HK, postal_code: '999077' }, { postal_code: '999077' }),
  row(OT('postal_code', 'all others 3-10'), 'HK sent "12"', { ...to.HK, postal_code: '12' }, 'postal_code invalid'),
  // recipient_state
  row(OT('recipient_state', 'required when recipient_country = US'), 'US missing', { ...to.US, recipient_state: DEL }, 'recipient_state require'),
  row(OT('recipient_state', 'required when recipient_country = US'), 'US "  "', { ...to.US, recipient_state: '  ' }, 'recipient_state require'),
  row(OT('recipient_state', 'required when recipient_country = US'), 'SG missing', {}, { recipient_state: DEL }),
  row(OT('recipient_state', 'max 60'), 'US 60 chars', { ...to.US, recipient_state: str(60) }, { recipient_state: str(60) }),
  row(OT('recipient_state', 'max 60'), 'US 61 chars', { ...to.US, recipient_state: str(61) }, 'recipient_state invalid'),
  row(OT('recipient_state', 'max 60'), 'SG 61 chars', { recipient_state: str(61) }, 'recipient_state invalid'),
  // recipient_city, recipient_email
  row(OT('recipient_city', 'max 64'), '64 chars', { recipient_city: str(64) }, { recipient_city: str(64) }),
  row(OT('recipient_city', 'max 64'), '65 chars', { recipient_city: str(65) }, 'recipient_city invalid'),
  row(OT('recipient_city', 'max 64'), 'number', { recipient_city: 5 }, 'recipient_city invalid'),
  row(STR, 'optional recipient_city "  " is not stored', { recipient_city: '  ' }, { recipient_city: DEL }),
  row(OT('recipient_city', 'optional'), 'null is not stored', { recipient_city: null }, { recipient_city: DEL }),
  row(OT('recipient_email', 'max 320'), '"a@b"', { recipient_email: 'a@b' }, { recipient_email: 'a@b' }),
  row(OT('recipient_email', 'max 320'), '320 chars', { recipient_email: `a@${str(318)}` }, { recipient_email: `a@${str(318)}` }),
  row(OT('recipient_email', 'max 320'), '321 chars', { recipient_email: `a@${str(319)}` }, 'recipient_email invalid'),
  row(OT('recipient_email', 'light format check'), '"ab"', { recipient_email: 'ab' }, 'recipient_email invalid'),
  row(OT('recipient_email', 'light format check'), '"a@b@c"', { recipient_email: 'a@b@c' }, 'recipient_email invalid'),
  row(OT('recipient_email', 'light format check'), '"@b"', { recipient_email: '@b' }, 'recipient_email invalid'),
  row(OT('recipient_email', 'light format check'), '"a@"', { recipient_email: 'a@' }, 'recipient_email invalid'),
  row(OT('recipient_email', 'light format check'), '"a b@c"', { recipient_email: 'a b@c' }, 'recipient_email invalid'),
  // sender_* (pickup rules)
  row(OT('sender_name', 'required for pickup service types'), 'PUD missing', { ...pickupOrder, sender_name: DEL }, 'sender_name require'),
  row(OT('sender_name', 'required for pickup service types'), 'PUD "  "', { ...pickupOrder, sender_name: '  ' }, 'sender_name require'),
  row(OT('sender_name', 'required for pickup service types'), 'LMD missing', { service_type: 'LMD' }, { sender_name: DEL }),
  row(OT('sender_name', 'max 64'), '64 chars', { sender_name: str(64) }, { sender_name: str(64) }),
  row(OT('sender_name', 'max 64'), 'non-pickup 65 chars', { sender_name: str(65) }, 'sender_name invalid'),
  row(OT('sender_phone', 'required for pickup service types'), 'PUD missing', { ...pickupOrder, sender_phone: DEL }, 'sender_phone require'),
  row(OT('sender_phone', 'digits only; max 24'), 'non-pickup "12a"', { sender_phone: '12a' }, 'sender_phone invalid'),
  row(OT('sender_phone', 'digits only; max 24'), '24 digits', { sender_phone: str(24, '1') }, { sender_phone: str(24, '1') }),
  row(OT('sender_phone', 'digits only; max 24'), '25 digits', { sender_phone: str(25, '1') }, 'sender_phone invalid'),
  row(OT('sender_address', 'required for pickup service types'), 'PUD missing', { ...pickupOrder, sender_address: DEL }, 'sender_address require'),
  row(OT('sender_address', 'max 512'), '512 chars with LF', { sender_address: `${str(510)}\r\n` }, { sender_address: `${str(510)}\r\n` }),
  row(OT('sender_address', 'max 512'), '513 chars', { sender_address: str(513) }, 'sender_address invalid'),
  row(OT('sender_postal_code', 'for pickup service types required unless sender_country = HK'), 'PUD sender SG missing', { ...pickupOrder, sender_postal_code: DEL }, 'sender_postal_code require'),
  row(OT('sender_postal_code', 'for pickup service types required unless sender_country = HK'), 'PUD sender HK missing', { ...pickupOrder, sender_country: 'HK', sender_postal_code: DEL }, { service_type: 'PUD', sender_postal_code: DEL }),
  row(OT('sender_postal_code', 'optional otherwise'), 'LMD sender SG missing', { sender_country: 'SG' }, { sender_postal_code: DEL }),
  row(OT('sender_postal_code', 'length 3-10'), '"12"', { sender_postal_code: '12' }, 'sender_postal_code invalid'),
  row(OT('sender_postal_code', 'length 3-10'), '"123"', { sender_postal_code: '123' }, { sender_postal_code: '123' }),
  row(OT('sender_postal_code', 'length 3-10'), '"AB1 2CD" stored as sent', { sender_postal_code: 'AB1 2CD' }, { sender_postal_code: 'AB1 2CD' }),
  row(OT('sender_postal_code', 'length 3-10'), '10 chars', { sender_postal_code: str(10, '1') }, { sender_postal_code: str(10, '1') }),
  row(OT('sender_postal_code', 'length 3-10'), '11 chars', { sender_postal_code: str(11, '1') }, 'sender_postal_code invalid'),
  row(OT('sender_postal_code', 'length 3-10'), 'number', { sender_postal_code: 12345 }, 'sender_postal_code invalid'),
  row(OT('sender_city', 'max 64'), '64 chars', { sender_city: str(64) }, { sender_city: str(64) }),
  row(OT('sender_city', 'max 64'), '65 chars', { sender_city: str(65) }, 'sender_city invalid'),
  row(OT('sender_email', 'max 320'), '320 chars', { sender_email: `${str(318)}@b` }, { sender_email: `${str(318)}@b` }),
  row(OT('sender_email', 'max 320'), '321 chars', { sender_email: `${str(319)}@b` }, 'sender_email invalid'),
  row(OT('sender_email', 'max 320'), '"no-at-sign"', { sender_email: 'no-at-sign' }, 'sender_email invalid'),
  // service_type
  row(OT('service_type', 'code assigned to the account'), '"LMD" kept', { service_type: 'LMD' }, { service_type: 'LMD' }),
  row(OT('service_type', 'when omitted the order is handled as last mile only'), 'omitted: not stored', {}, { service_type: DEL }),
  row(OT('service_type', 'length 3'), '"LM"', { service_type: 'LM' }, 'service_type invalid'),
  row(OT('service_type', 'length 3'), '"LMDD"', { service_type: 'LMDD' }, 'service_type invalid'),
  row(OT('service_type', 'length 3'), 'number', { service_type: 123 }, 'service_type invalid'),
  row(OT('service_type', 'code assigned to the account'), '"XYZ" (unknown)', { service_type: 'XYZ' }, 'service_type invalid'),
  row(OT('service_type', 'code assigned to the account'), '"lmd"', { service_type: 'lmd' }, 'service_type invalid'),
  row('decisions "A service_type not assigned to the account: service_type invalid"', 'other account "SLF"', { service_type: 'SLF' }, 'service_type invalid', other),
  row('decisions "A service_type not assigned to the account: service_type invalid"', 'other account "PUD" with sender fields', pickupOrder, 'service_type invalid', other),
  row(OT('service_type', 'pickup types also require the sender_* fields'), 'other account "PUD" without sender fields (pickup read from the raw type)', { service_type: 'PUD' }, 'sender_name require', other),
  row('decisions "PUD to LMX-PU (recipient SG or MY only, else service_type invalid)"', 'PUD to JP', { ...to.JP, ...pickupOrder }, 'service_type invalid'),
  row('decisions "PUD to LMX-PU (recipient SG or MY only, else service_type invalid)"', 'PUD to MY', { ...to.MY, ...pickupOrder }, { service_type: 'PUD' }),
  // service_code
  row(OT('service_code', 'Required and must be valid when recipient_country = US'), 'US missing', { ...to.US, service_code: DEL }, 'Service code invalid'),
  row(OT('service_code', 'Required and must be valid when recipient_country = US'), 'US "  "', { ...to.US, service_code: '  ' }, 'Service code invalid'),
  row(OT('service_code', 'Required and must be valid when recipient_country = US'), 'US "XXX"', { ...to.US, service_code: 'XXX' }, 'Service code invalid'),
  row(OT('service_code', 'Required and must be valid when recipient_country = US'), 'US "usg"', { ...to.US, service_code: 'usg' }, 'Service code invalid'),
  row(OT('service_code', 'Required and must be valid when recipient_country = US'), 'US number', { ...to.US, service_code: 123 }, 'Service code invalid'),
  row(OT('service_code', 'Required and must be valid when recipient_country = US'), 'US "USE" kept', { ...to.US, service_code: 'USE' }, { service_code: 'USE' }),
  row(OT('service_code', 'optional for SG but must be valid if sent'), 'SG "XXX"', { service_code: 'XXX' }, 'Service code (XXX) invalid'),
  row(OT('service_code', 'optional for SG but must be valid if sent'), 'SG number 123', { service_code: 123 }, 'Service code (123) invalid'),
  row(OT('service_code', 'optional for SG but must be valid if sent'), 'SG "SGN" kept', { service_code: 'SGN' }, { service_code: 'SGN' }),
  row(OT('service_code', 'optional for SG but must be valid if sent'), 'SG missing', {}, { service_code: DEL }),
  row(OT('service_code', 'optional for SG but must be valid if sent'), 'SG "  " not stored', { service_code: '  ' }, { service_code: DEL }),
  row(OT('service_code', 'ignored for every other destination'), 'JP "XXX" not validated, not kept', { ...to.JP, service_code: 'XXX' }, { service_code: DEL }),
  row(OT('service_code', 'ignored for every other destination'), 'MY {} not validated, not kept', { ...to.MY, service_code: {} }, { service_code: DEL }),
  // instruction
  row(OT('instruction', 'max 1024'), '1024 chars', { instruction: str(1024) }, { instruction: str(1024) }),
  row(OT('instruction', 'max 1024'), '1025 chars', { instruction: str(1025) }, 'instruction invalid'),
  row(OT('instruction', 'max 1024'), 'TAB, CR, LF kept as sent', { instruction: ' [sandbox:no-partner]\r\n\tLeave ' }, { instruction: ' [sandbox:no-partner]\r\n\tLeave ' }),
  row(OT('instruction', 'max 1024'), 'number', { instruction: 1 }, 'instruction invalid'),
  // cash, cash_currency
  row(OT('cash', 'requires cash_currency'), 'cash 10 SGD', { cash: 10, cash_currency: 'SGD' }, { cash: 10, cash_currency: 'SGD' }),
  row(OT('cash', 'requires cash_currency'), 'cash missing, cash_currency "SGD"', { cash_currency: 'SGD' }, 'cash require'),
  row(OT('cash', 'requires cash_currency'), 'cash missing, cash_currency "bad" (cash comes first)', { cash_currency: 'bad' }, 'cash require'),
  row(OT('cash_currency', 'requires cash'), 'cash 10, cash_currency missing', { cash: 10 }, 'cash_currency require'),
  row(OT('cash_currency', 'requires cash'), 'cash 0, cash_currency "  "', { cash: 0, cash_currency: '  ' }, 'cash_currency require'),
  row(OT('cash', '0 to 9999.99'), '-0.01', { cash: -0.01, cash_currency: 'SGD' }, 'cash invalid'),
  row(OT('cash', '0 to 9999.99'), '0', { cash: 0, cash_currency: 'SGD' }, { cash: 0 }),
  row(OT('cash', '0 to 9999.99'), '9999.99', { cash: 9999.99, cash_currency: 'SGD' }, { cash: 9999.99 }),
  row(OT('cash', '0 to 9999.99'), '10000', { cash: 10000, cash_currency: 'SGD' }, 'cash invalid'),
  row(NUM, 'cash "10.5"', { cash: '10.5', cash_currency: 'SGD' }, { cash: 10.5 }),
  row(NUM, 'cash "ten"', { cash: 'ten', cash_currency: 'SGD' }, 'cash invalid'),
  row(OT('cash_currency', 'must be SGD when recipient_country = SG'), 'SG "USD"', { cash: 10, cash_currency: 'USD' }, 'cash_currency invalid'),
  row(OT('cash_currency', 'must be SGD when recipient_country = SG'), 'MY "USD"', { ...to.MY, cash: 10, cash_currency: 'USD' }, { cash_currency: 'USD' }),
  row(OT('cash_currency', 'length 3'), '"sgd"', { cash: 10, cash_currency: 'sgd' }, 'cash_currency invalid'),
  row(OT('cash_currency', 'length 3'), 'MY "USDX"', { ...to.MY, cash: 10, cash_currency: 'USDX' }, 'cash_currency invalid'),
  // supplier_*, gst, incoterm
  row(OT('supplier_name', 'max 64'), '64 chars', { supplier_name: str(64) }, { supplier_name: str(64) }),
  row(OT('supplier_name', 'max 64'), '65 chars', { supplier_name: str(65) }, 'supplier_name invalid'),
  row(OT('supplier_gstn', 'max 64'), '64 chars', { supplier_gstn: str(64) }, { supplier_gstn: str(64) }),
  row(OT('supplier_gstn', 'max 64'), '65 chars', { supplier_gstn: str(65) }, 'supplier_gstn invalid'),
  row(OT('total_gst_amount', '0 to 9999.99'), '0', { total_gst_amount: 0 }, { total_gst_amount: 0 }),
  row(OT('total_gst_amount', '0 to 9999.99'), '9999.99', { total_gst_amount: 9999.99 }, { total_gst_amount: 9999.99 }),
  row(OT('total_gst_amount', '0 to 9999.99'), '10000', { total_gst_amount: 10000 }, 'total_gst_amount invalid'),
  row(OT('total_gst_amount', '0 to 9999.99'), '-1', { total_gst_amount: -1 }, 'total_gst_amount invalid'),
  row(NUM, 'total_gst_amount "7.5"', { total_gst_amount: '7.5' }, { total_gst_amount: 7.5 }),
  row(OT('gst_currency', 'length 3'), '"USD"', { gst_currency: 'USD' }, { gst_currency: 'USD' }),
  row(OT('gst_currency', 'length 3'), '"usd"', { gst_currency: 'usd' }, 'gst_currency invalid'),
  row(OT('gst_currency', 'length 3'), '"US"', { gst_currency: 'US' }, 'gst_currency invalid'),
  row(OT('gst_paid', 'Y or N'), '"Y"', { gst_paid: 'Y' }, { gst_paid: 'Y' }),
  row(OT('gst_paid', 'Y or N'), '"N"', { gst_paid: 'N' }, { gst_paid: 'N' }),
  row(OT('gst_paid', 'Y or N'), '"y"', { gst_paid: 'y' }, 'gst_paid invalid'),
  row(OT('gst_paid', 'Y or N'), '"YES"', { gst_paid: 'YES' }, 'gst_paid invalid'),
  row(OT('gst_paid', 'Y or N'), 'true', { gst_paid: true }, 'gst_paid invalid'),
  row(OT('incoterm_type', 'DDU or DDP'), '"DDU"', { incoterm_type: 'DDU' }, { incoterm_type: 'DDU' }),
  row(OT('incoterm_type', 'DDU or DDP'), '"DDP"', { incoterm_type: 'DDP' }, { incoterm_type: 'DDP' }),
  row(OT('incoterm_type', 'DDU or DDP'), '"ddp"', { incoterm_type: 'ddp' }, 'incoterm_type invalid'),
  row(OT('incoterm_type', 'DDU or DDP'), '"EXW"', { incoterm_type: 'EXW' }, 'incoterm_type invalid'),
  // locker_type (locker_station: nested spec)
  row(OT('locker_type', 'only A and B accepted'), '"C"', { locker_type: 'C' }, 'locker_type invalid'),
  row(OT('locker_type', 'only A and B accepted'), '"a"', { locker_type: 'a' }, 'locker_type invalid'),
  row(OT('locker_type', 'only A and B accepted'), 'number', { locker_type: 1 }, 'locker_type invalid'),
];

describe('validateCreateOrder: Order table fields', () => {
  test.each(rows)('$name', check);
});

/** String fields of the Order table with a valid sample (context patch included). */
const stringFields: [field: string, patch: Body, message?: string][] = [
  ['custom_tracking_num', { custom_tracking_num: 'REF1' }],
  ['recipient_name', { recipient_name: 'Tan' }],
  ['recipient_country', { recipient_country: 'SG' }],
  ['recipient_phone', { recipient_phone: '65' }],
  ['recipient_address', { recipient_address: 'Addr' }],
  ['sender_country', { sender_country: 'HK' }],
  ['client_size', { client_size: '1,2,3' }, 'Client Size invalid'],
  ['declared_value_currency', { declared_value_currency: 'SGD' }],
  ['postal_code', { postal_code: '048618' }],
  ['recipient_state', { recipient_state: 'CA' }],
  ['recipient_city', { recipient_city: 'City' }],
  ['recipient_email', { recipient_email: 'a@b.c' }],
  ['sender_name', { sender_name: 'Shop' }],
  ['sender_phone', { sender_phone: '65' }],
  ['sender_address', { sender_address: 'Addr' }],
  ['sender_postal_code', { sender_postal_code: '123456' }],
  ['sender_city', { sender_city: 'City' }],
  ['sender_email', { sender_email: 'a@b.c' }],
  ['service_type', { service_type: 'LMD' }],
  ['service_code', { ...to.US, service_code: 'USG' }, 'Service code invalid'],
  ['instruction', { instruction: 'Leave at door' }],
  ['cash_currency', { cash: 1, cash_currency: 'SGD' }],
  ['supplier_name', { supplier_name: 'Supplier' }],
  ['supplier_gstn', { supplier_gstn: 'GST1' }],
  ['gst_currency', { gst_currency: 'SGD' }],
  ['gst_paid', { gst_paid: 'Y' }],
  ['incoterm_type', { incoterm_type: 'DDP' }],
  ['locker_type', { locker_type: 'B' }],
];
const MULTILINE = new Set(['recipient_address', 'sender_address', 'instruction']);
const CONTROL = 'validation contract "control characters (U+0000-U+001F, U+007F) are invalid, except TAB, LF and CR in addresses and instruction"';
const STRING_TYPE = 'validation contract "strings must be JSON strings"';

describe('validateCreateOrder: every string field', () => {
  const cases = stringFields.flatMap(([field, patch, message = `${field} invalid`]) => {
    const valid = patch[field] as string;
    const ok = { ...patch };
    const bad = (desc: string, value: unknown) => row(CONTROL, `${field} ${desc}`, { ...patch, [field]: value }, message);
    return [
      row(STRING_TYPE, `${field} valid sample`, ok, { [field]: field === 'client_size' ? '3,2,1' : valid }),
      row(STRING_TYPE, `${field} as a number`, { ...patch, [field]: 12 }, message),
      row(STRING_TYPE, `${field} as an object`, { ...patch, [field]: { value: valid } }, message),
      bad('with U+0000', `${valid}\u0000`),
      bad('with U+001B', `${valid}\u001b`),
      bad('with U+007F', `${valid}\u007f`),
      ...(MULTILINE.has(field)
        ? [row(CONTROL, `${field} with TAB, LF, CR`, { ...patch, [field]: `${valid}\t\n\r.` }, { [field]: `${valid}\t\n\r.` })]
        : [bad('with LF', `${valid}\n1`), bad('with TAB', `${valid}\t1`)]),
    ];
  });
  test.each(cases)('$name', check);
});
