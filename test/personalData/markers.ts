/**
 * Orders whose every personal field holds a value found nowhere else, and the byte scans that look
 * for those values in what the service wrote (docs/personal-data.md).
 */
import { randomBytes } from 'node:crypto';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { orderBody } from '../support/orders.ts';

/** A run's unique marker values: letters for the texts, digits for the phones. */
export function markers() {
  const tag = randomBytes(5).toString('hex').toUpperCase();
  const digits = () => String(60_000_000 + (randomBytes(3).readUIntBE(0, 3) % 9_999_999));
  const m = {
    recipientName: `Rname${tag}`,
    recipientPhone: digits(),
    recipientAddress: `Raddr${tag} Street 9`,
    recipientCity: `Rcity${tag}`,
    recipientState: `Rstate${tag}`,
    recipientEmail: `remail${tag.toLowerCase()}@example.com`,
    senderName: `Sname${tag}`,
    senderPhone: digits(),
    senderAddress: `Saddr${tag} Road 3`,
    senderPostalCode: `S${tag.slice(0, 6)}`,
    senderCity: `Scity${tag}`,
    senderEmail: `semail${tag.toLowerCase()}@example.com`,
    instruction: `Rinstr${tag} leave at door`,
    carrierLocation: `${tag.slice(0, 3)} Carrierloc Avenue`,
    carrierRemarks: `Cremarks${tag}`,
    carrierSigner: `Csigner${tag}`,
    carrierPod: `pod/Cpod${tag}.png`,
  };
  return m;
}
export type Markers = ReturnType<typeof markers>;

/** A create-order body with a marker in every personal field. */
export const markedOrder = (m: Markers, overrides: Record<string, unknown> = {}) =>
  orderBody({
    recipient_name: m.recipientName,
    recipient_phone: m.recipientPhone,
    recipient_address: m.recipientAddress,
    recipient_city: m.recipientCity,
    recipient_state: m.recipientState,
    recipient_email: m.recipientEmail,
    sender_name: m.senderName,
    sender_phone: m.senderPhone,
    sender_address: m.senderAddress,
    sender_postal_code: m.senderPostalCode,
    sender_city: m.senderCity,
    sender_email: m.senderEmail,
    instruction: m.instruction,
    ...overrides,
  });

/** The carrier event of a delivery, its personal fields marked; at `eventTime` (after the test clock's start by default). */
export const markedDelivery = (m: Markers, partner: string, eventTime = '2026-11-23T10:15:00+08:00') => ({
  partner_tracking_no: partner,
  event_code: 'DELIVERED',
  event_time: eventTime,
  location: m.carrierLocation,
  remarks: m.carrierRemarks,
  receive_by: m.carrierSigner,
  pod: [m.carrierPod],
});

/** The texts to look for, as bytes: UTF-8 and UTF-16 (how SQLite may hold text), each marker. */
export function needles(values: readonly string[]): { value: string; bytes: Buffer }[] {
  return values.flatMap((value) => [
    { value, bytes: Buffer.from(value, 'utf8') },
    { value: `${value} (utf16)`, bytes: Buffer.from(value, 'utf16le') },
  ]);
}

/** Every file under `dir` (WAL, journal and key files included) that holds one of `found`: `file: value` pairs. */
export function scanFiles(dir: string, found: readonly { value: string; bytes: Buffer }[]): string[] {
  const hits: string[] = [];
  const walk = (at: string) => {
    for (const name of readdirSync(at)) {
      const file = path.join(at, name);
      if (statSync(file).isDirectory()) walk(file);
      else {
        const content = readFileSync(file);
        for (const n of found) if (content.includes(n.bytes)) hits.push(`${path.relative(dir, file)}: ${n.value}`);
      }
    }
  };
  walk(dir);
  return hits;
}
