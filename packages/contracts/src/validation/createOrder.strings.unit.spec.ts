/**
 * Every string field of the Order table (interface B create-order): JSON strings only, and no
 * control characters except TAB, LF and CR in the multi-line fields. The other rules of each field:
 * createOrder.fields.unit.spec.ts.
 */
import type { Body } from '../../test/createOrder.fixtures.ts';
import { check, row, to } from '../../test/createOrder.fixtures.ts';

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
const CONTROL =
  'validation contract "control characters (U+0000-U+001F, U+007F) are invalid, except TAB, LF and CR in addresses and instruction"';
const STRING_TYPE = 'validation contract "strings must be JSON strings"';

describe('validateCreateOrder: every string field', () => {
  const cases = stringFields.flatMap(([field, patch, message = `${field} invalid`]) => {
    const valid = patch[field] as string;
    const ok = { ...patch };
    const bad = (desc: string, value: unknown) =>
      row(CONTROL, `${field} ${desc}`, { ...patch, [field]: value }, message);
    return [
      row(STRING_TYPE, `${field} valid sample`, ok, { [field]: field === 'client_size' ? '3,2,1' : valid }),
      row(STRING_TYPE, `${field} as a number`, { ...patch, [field]: 12 }, message),
      row(STRING_TYPE, `${field} as an object`, { ...patch, [field]: { value: valid } }, message),
      bad('with U+0000', `${valid}\u0000`),
      bad('with U+001B', `${valid}\u001b`),
      bad('with U+007F', `${valid}\u007f`),
      ...(MULTILINE.has(field)
        ? [
            row(
              CONTROL,
              `${field} with TAB, LF, CR`,
              { ...patch, [field]: `${valid}\t\n\r.` },
              { [field]: `${valid}\t\n\r.` },
            ),
          ]
        : [bad('with LF', `${valid}\n1`), bad('with TAB', `${valid}\t1`)]),
    ];
  });
  test.each(cases)('$name', check);
});
