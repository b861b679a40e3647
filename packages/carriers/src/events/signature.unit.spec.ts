/** decisions.md: `X-Carrier-Signature: sha256=<hex HMAC-SHA256 of the raw body with the carrier's secret>`. */
import { createHmac } from 'node:crypto';
import { verifyCarrierSignature } from './signature.ts';

const secret = 'lmx-sandbox-secret';
const body = Buffer.from('{"partner_tracking_no":"LMX1","event_code":"DELIVERED"}');
const hex = createHmac('sha256', secret).update(body).digest('hex');

test('the HMAC of the exact raw bytes verifies (either hex case)', () => {
  expect(verifyCarrierSignature(body, `sha256=${hex}`, secret)).toBe(true);
  expect(verifyCarrierSignature(body, `sha256=${hex.toUpperCase()}`, secret)).toBe(true);
});

test('a changed body, another secret or an empty secret fails', () => {
  expect(verifyCarrierSignature(Buffer.from(body.toString() + ' '), `sha256=${hex}`, secret)).toBe(false);
  expect(verifyCarrierSignature(body, `sha256=${hex}`, 'other')).toBe(false);
  const unkeyed = createHmac('sha256', '').update(body).digest('hex');
  expect(verifyCarrierSignature(body, `sha256=${unkeyed}`, '')).toBe(false);
});

test.each([
  undefined,
  '',
  hex,
  `sha1=${hex}`,
  `sha256=${hex.slice(2)}`,
  `sha256=${hex}00`,
  `sha256=${'z'.repeat(64)}`,
  `sha256= ${hex}`,
])('header %p is refused', (header) => {
  expect(verifyCarrierSignature(body, header, secret)).toBe(false);
});
