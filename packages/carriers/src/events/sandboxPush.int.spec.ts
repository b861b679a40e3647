/** decisions.md: carriers push events to /carrier-events/{carrierCode}, signed with X-Carrier-Signature. */
import { createServer } from 'node:http';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createCarrierSandbox } from '@parcel-logistics/carrier-sandbox';
import type { CarrierSandbox } from '@parcel-logistics/carrier-sandbox';
import { loadReferenceData } from '@parcel-logistics/reference-data';
import { createLmxClient } from '../lmx/lmxClient.ts';
import { mapCarrierCode } from './mapCarrierCode.ts';
import { parseCarrierEvent } from './parseCarrierEvent.ts';
import { verifyCarrierSignature } from './signature.ts';

const secret = loadReferenceData().carriers.get('LMX')!.eventSecret!;
const received: { path: string; raw: Buffer; signature: string | undefined }[] = [];

// Our side of the callback in miniature: verify the raw bytes, then parse.
let receiver: Server;
let sandbox: CarrierSandbox;
let sandboxUrl: string;
beforeAll(async () => {
  receiver = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const raw = Buffer.concat(chunks);
      const signature = req.headers['x-carrier-signature'] as string | undefined;
      received.push({ path: req.url ?? '', raw, signature });
      const ok = verifyCarrierSignature(raw, signature, secret);
      res
        .writeHead(ok ? 200 : 401, { 'content-type': 'application/json' })
        .end(JSON.stringify(ok ? { code: 0 } : { message: 'bad signature' }));
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  const callbackUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/`;
  sandbox = createCarrierSandbox({ callbackUrl, secret, now: () => new Date('2026-11-22T06:05:09.789Z') });
  sandboxUrl = (await sandbox.listen(0)).url;
});
afterAll(async () => {
  await sandbox.close();
  receiver.closeAllConnections();
  await new Promise((resolve) => receiver.close(resolve));
});

const sendEvent = (body: unknown, path = '/v1/sandbox/events') =>
  fetch(sandboxUrl + path, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });

test('a delivery event of an LMX-PU parcel arrives signed at /carrier-events/LMX-PU and parses to DL_DL', async () => {
  const [reg] = await createLmxClient({ baseUrl: sandboxUrl }).register([
    {
      trackingNumber: 'PX-PUSH-1',
      carrier: 'LMX-PU',
      recipientCountry: 'MY',
      postalCode: '50450',
      recipientName: 'Siti',
      instruction: '',
    },
  ]);
  if (!reg) throw new Error('no answer for the shipment');
  if (!reg.ok) throw new Error(reg.reason);
  const r = await sendEvent({
    partner_tracking_no: reg.partnerTrackingNo,
    event_code: 'DELIVERED',
    receive_by: 'Siti',
    pod: ['https://pod.example/1.jpg'],
  });
  expect(r.status).toBe(200);
  expect(await r.json()).toEqual({ delivered: true, status: 200, response: { code: 0 } });

  const got = received.at(-1)!;
  expect(got.path).toBe('/carrier-events/LMX-PU');
  expect(got.signature).toMatch(/^sha256=[0-9a-f]{64}$/);
  expect(verifyCarrierSignature(got.raw, got.signature, secret)).toBe(true);
  expect(JSON.parse(got.raw.toString())).toEqual({
    partner_tracking_no: reg.partnerTrackingNo,
    event_code: 'DELIVERED',
    event_time: '2026-11-22T14:05:09+08:00',
    location: '',
    remarks: '',
    receive_by: 'Siti',
    pod: ['https://pod.example/1.jpg'],
  });
  const parsed = parseCarrierEvent(JSON.parse(got.raw.toString()));
  expect(parsed.ok && mapCarrierCode(loadReferenceData().carriers.get('LMX-PU')!, parsed.event.carrierCode)).toBe(
    'DL_DL',
  );
  expect(parsed.ok && parsed.event.eventTime).toEqual(new Date('2026-11-22T06:05:09Z'));
});

test('a tampered body fails verification', async () => {
  const r = await sendEvent({
    partner_tracking_no: 'LMX000000000009',
    event_code: 'IN_TRANSIT',
    event_time: '2026-11-22T10:00:00+08:00',
  });
  expect(r.status).toBe(200);
  const got = received.at(-1)!;
  expect(got.path).toBe('/carrier-events/LMX');
  const tampered = Buffer.from(got.raw.toString().replace('IN_TRANSIT', 'DELIVERED'));
  expect(verifyCarrierSignature(tampered, got.signature, secret)).toBe(false);
  // Same JSON, other bytes: the signature covers the raw body, not its meaning.
  const reformatted = Buffer.from(JSON.stringify(JSON.parse(got.raw.toString()), null, 1));
  expect(verifyCarrierSignature(reformatted, got.signature, secret)).toBe(false);
});

test('raw callback with a wrong signature: the receiver refuses it and the sandbox passes the status on', async () => {
  const r = await sendEvent(
    { body: '{"partner_tracking_no":"LMX1"}', signature: 'sha256=' + '0'.repeat(64) },
    '/v1/sandbox/raw-callback',
  );
  expect(r.status).toBe(401);
  expect(await r.json()).toEqual({ delivered: false, status: 401, response: { message: 'bad signature' } });
  expect(received.at(-1)!.raw.toString()).toBe('{"partner_tracking_no":"LMX1"}');
});
