/** decisions.md "Carriers, cancellation and carrier events": carrier codes mapped at the edge, unknown kept as sent. */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadReferenceData } from '@parcel-logistics/reference-data';
import type { CarrierDef } from '@parcel-logistics/reference-data';
import { mapCarrierCode } from './mapCarrierCode.ts';
import { parseCarrierEvent } from './parseCarrierEvent.ts';

// Jest runs this file as CommonJS, where __dirname is defined.
const fixture = (name: string): unknown =>
  JSON.parse(readFileSync(join(__dirname, '../../test/fixtures', name), 'utf8'));
const carriers = loadReferenceData().carriers;
const lmx = carriers.get('LMX')!;

function parsed(name: string) {
  const r = parseCarrierEvent(fixture(name));
  if (!r.ok) throw new Error(r.message);
  return r.event;
}

test('recorded LMX delivery: DL_DL with receive_by and pod', () => {
  const e = parsed('lmx-delivered.json');
  expect(mapCarrierCode(lmx, e.carrierCode)).toBe('DL_DL');
  expect(e).toEqual({
    partnerTrackingNo: 'LMX7Q2K9D4M1X8ZP',
    carrierCode: 'DELIVERED',
    eventTime: new Date('2026-11-24T08:42:07Z'),
    location: 'Singapore 048616',
    remarks: 'Delivered to recipient at front door',
    receiveBy: 'Tan Ah Kow',
    pod: [
      'https://pod.lmx-sandbox.example/LMX7Q2K9D4M1X8ZP/photo-1.jpg',
      'https://pod.lmx-sandbox.example/LMX7Q2K9D4M1X8ZP/signature.png',
    ],
  });
});

test('recorded LMX bad address: FD_BA; null receive_by and pod read as empty', () => {
  const e = parsed('lmx-bad-address.json');
  expect(mapCarrierCode(lmx, e.carrierCode)).toBe('FD_BA');
  expect(e.eventTime).toEqual(new Date('2026-11-24T11:03:55.120Z'));
  expect([e.receiveBy, e.pod]).toEqual(['', []]);
});

test('recorded unknown code: kept and shown as sent; unknown fields ignored', () => {
  const e = parsed('lmx-unknown-code.json');
  expect(mapCarrierCode(lmx, e.carrierCode)).toBe('HELD_AT_CUSTOMS');
  expect(e).not.toHaveProperty('courier_id');
  expect([e.receiveBy, e.pod]).toEqual(['', []]);
});

test('recorded malformed time: refused as event_time invalid', () => {
  expect(parseCarrierEvent(fixture('lmx-malformed-time.json'))).toEqual({ ok: false, message: 'event_time invalid' });
});

test.each([
  ['PICKED_UP', 'PU_PU'],
  ['IN_TRANSIT', 'IT_IT'],
  ['OUT_FOR_DELIVERY', 'OD_OD'],
  ['DELIVERED', 'DL_DL'],
  ['BAD_ADDRESS', 'FD_BA'],
  ['NOT_AVAILABLE', 'FD_NA'],
  ['RETURNED', 'RS_RS'],
])('LMX and LMX-PU map %s to %s', (code, ours) => {
  expect(mapCarrierCode(lmx, code)).toBe(ours);
  expect(mapCarrierCode(carriers.get('LMX-PU')!, code)).toBe(ours);
});

test('codes that name Object.prototype members, and carriers without a table, pass through', () => {
  expect(mapCarrierCode(lmx, 'constructor')).toBe('constructor');
  expect(mapCarrierCode(lmx, '__proto__')).toBe('__proto__');
  expect(mapCarrierCode(lmx, 'delivered')).toBe('delivered');
  const bare: CarrierDef = { code: 'USX', name: 'USX Parcel', cancellable: false };
  expect(mapCarrierCode(bare, 'DELIVERED')).toBe('DELIVERED');
});

const base = { partner_tracking_no: 'LMX1', event_code: 'IN_TRANSIT', event_time: '2026-11-22T14:05:09+08:00' };

test.each([
  ['2026-11-22T06:05:09Z', '2026-11-22T06:05:09.000Z'],
  ['2026-11-22T14:05+08:00', '2026-11-22T06:05:00.000Z'],
  ['2026-11-22T14:05:09.5+0800', '2026-11-22T06:05:09.500Z'],
  ['2024-02-29T00:00:00-05:00', '2024-02-29T05:00:00.000Z'],
])('event_time %s is accepted', (time, iso) => {
  const r = parseCarrierEvent({ ...base, event_time: time });
  expect(r.ok && r.event.eventTime.toISOString()).toBe(iso);
});

test.each([
  '2026-11-22T14:05:09',
  '2026-11-22 14:05:09Z',
  '2026-02-30T00:00:00Z',
  '2026-13-01T00:00:00Z',
  '2026-11-22T24:00:00Z',
  '2026-11-22T14:05:09+15:00',
  '1732255509',
  '',
])('event_time %p is refused', (time) => {
  expect(parseCarrierEvent({ ...base, event_time: time })).toEqual({ ok: false, message: 'event_time invalid' });
});

test.each([
  [{ ...base, partner_tracking_no: undefined }, 'partner_tracking_no require'],
  [{ ...base, partner_tracking_no: '  ' }, 'partner_tracking_no invalid'],
  [{ ...base, event_code: null }, 'event_code require'],
  [{ ...base, event_time: undefined }, 'event_time require'],
  [{ ...base, location: 'x'.repeat(256) }, 'location invalid'],
  [{ ...base, receive_by: 'x'.repeat(256) }, 'receive_by invalid'],
  [{ ...base, remarks: 'x'.repeat(1025) }, 'remarks invalid'],
  [{ ...base, pod: Array(21).fill('p') }, 'pod invalid'],
  [{ ...base, pod: ['x'.repeat(501)] }, 'pod invalid'],
  [{ ...base, pod: 'photo.jpg' }, 'pod invalid'],
  [[base], 'Invalid JSON body'],
  [null, 'Invalid JSON body'],
])('bad body %# refused: %s', (body, message) => {
  expect(parseCarrierEvent(body)).toEqual({ ok: false, message });
});

test('bounds are inclusive', () => {
  const r = parseCarrierEvent({
    ...base,
    location: 'x'.repeat(255),
    remarks: 'x'.repeat(1024),
    receive_by: 'x'.repeat(255),
    pod: Array(20).fill('x'.repeat(500)),
  });
  expect(r.ok).toBe(true);
});
