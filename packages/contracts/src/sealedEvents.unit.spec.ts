/** Sealed stored events: personal values only inside `sealed`, back with the key, gone without it. */
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { sampleParcelOrder } from '@parcel-logistics/domain/testing';
import type { DomainEvent } from '@parcel-logistics/domain';
import { FORMER_PERSONAL_TYPES, openStored, sealFormer, sealStored, type StreamSeal } from './sealedEvents.ts';
import { deserializeEvent, serializeEvent, type StoredEvent } from './storedEvents.ts';
import { parcelRegisteredV1 } from './upcasters.ts';

/** AES-256-GCM with one key: the cipher the key package uses, written out here so the test judges the format alone. */
function aes(key = randomBytes(32)): StreamSeal & { bindings: string[] } {
  const bindings: string[] = [];
  return {
    bindings,
    seal(plain, aad) {
      bindings.push(aad);
      const iv = randomBytes(12);
      const c = createCipheriv('aes-256-gcm', key, iv).setAAD(Buffer.from(aad));
      const body = Buffer.concat([c.update(plain, 'utf8'), c.final()]);
      return Buffer.concat([iv, c.getAuthTag(), body]).toString('base64url');
    },
    open(sealed, aad) {
      const raw = Buffer.from(sealed, 'base64url');
      const d = createDecipheriv('aes-256-gcm', key, raw.subarray(0, 12)).setAAD(Buffer.from(aad));
      d.setAuthTag(raw.subarray(12, 28));
      return Buffer.concat([d.update(raw.subarray(28)), d.final()]).toString('utf8');
    },
  };
}
const erased: StreamSeal['open'] = () => undefined;

const STREAM = 'parcel-PX0000000000000001';
const order = sampleParcelOrder({
  instruction: 'MARK-instruction',
  recipient: {
    name: 'MARK-name',
    country: 'SG',
    phone: '6511110000',
    address: 'MARK-address',
    postalCode: '048616',
    email: 'mark@example.com',
  },
  sender: { country: 'SG', name: 'MARK-sender', phone: '6522220000' },
});
const MARKERS = ['MARK', 'mark@', '6511110000', '6522220000', '048616'];
const registered: DomainEvent = {
  type: 'ParcelRegistered',
  data: {
    clientId: 'c1',
    order,
    serviceType: 'STD',
    carrier: 'LMX',
    trackingNumber: 'PX0000000000000001',
    registeredAt: new Date('2026-11-28T00:00:00Z'),
  },
};
const delivered: DomainEvent = {
  type: 'CarrierEventRecorded',
  data: {
    trackingNumber: 'PX0000000000000001',
    carrier: 'LMX',
    carrierCode: 'DELIVERED',
    statusCode: 'DL_DL',
    eventTime: new Date('2026-11-28T01:00:00Z'),
    location: 'MARK-street 1',
    remarks: 'MARK-remarks',
    receiveBy: 'MARK-signer',
    pod: ['MARK-pod.png'],
    recordedAt: new Date('2026-11-28T01:00:01Z'),
  },
};
const batch: DomainEvent = {
  type: 'OrderBatchAccepted',
  data: {
    batchId: 'b1',
    clientId: 'c1',
    orders: [{ clientId: 'c1', order, serviceType: 'STD', carrier: 'LMX' }],
    acceptedAt: new Date('2026-11-28T00:00:00Z'),
  },
};

const expectNoMarker = (value: unknown) => {
  const text = JSON.stringify(value);
  for (const m of MARKERS) expect({ m, found: text.includes(m) }).toEqual({ m, found: false });
};

test.each([
  [registered, 'ParcelRegistered.v3'],
  [delivered, 'CarrierEventRecorded.v2'],
  [batch, 'OrderBatchAccepted.v3'],
])('%#: the stored event holds no personal value outside `sealed`, and reads back as it was', (event, sealedType) => {
  const key = aes();
  const stored = sealStored(STREAM, serializeEvent(event), key.seal);
  expect(stored.type).toBe(sealedType);
  expectNoMarker(stored);
  expect(deserializeEvent(openStored(STREAM, stored, key.open))).toEqual(event);
  expect(key.bindings).toEqual([`${STREAM}|${sealedType}`]);
});

test('with the key erased, the event reads as its clear part: countries, weights and status kept, nothing personal', () => {
  const stored = sealStored(STREAM, serializeEvent(registered), aes().seal);
  const back = deserializeEvent(openStored(STREAM, stored, erased));
  expectNoMarker(back);
  expect(back).toMatchObject({
    type: 'ParcelRegistered',
    data: {
      trackingNumber: 'PX0000000000000001',
      order: { recipient: { country: 'SG', name: '' }, weight: order.weight },
    },
  });
  const event = deserializeEvent(openStored(STREAM, sealStored(STREAM, serializeEvent(delivered), aes().seal), erased));
  expect(event).toMatchObject({ data: { statusCode: 'DL_DL', location: '', receiveBy: '', pod: [] } });
});

test('a sealed value moved to another stream does not open there', () => {
  const key = aes();
  const stored = sealStored(STREAM, serializeEvent(registered), key.seal);
  expect(() => openStored('parcel-PX0000000000000002', stored, key.open)).toThrow();
});

test('events without personal values are stored as they are', () => {
  const cancelled: DomainEvent = {
    type: 'ParcelCancelled',
    data: { trackingNumber: 'PX0000000000000001', cancelledAt: new Date('2026-11-28T02:00:00Z') },
  };
  const stored = serializeEvent(cancelled);
  expect(sealStored(STREAM, stored, aes().seal)).toBe(stored);
});

test('an event written before sealing (ParcelRegistered.v1) is upcast and sealed by the migration', () => {
  const key = aes();
  const v2 = serializeEvent(registered);
  const v1: StoredEvent = { type: 'ParcelRegistered.v1', data: parcelRegisteredV1(v2.data) };
  const sealed = sealFormer(STREAM, v1, key.seal);
  expect(sealed.type).toBe('ParcelRegistered.v3');
  expectNoMarker(sealed);
  expect(deserializeEvent(openStored(STREAM, sealed, key.open))).toEqual(deserializeEvent(v1));
});

test('the migration seals exactly the stored types that hold personal values in clear, current and older', () => {
  expect([...FORMER_PERSONAL_TYPES].sort()).toEqual([
    'CarrierEventRecorded.v1',
    'OrderBatchAccepted.v1',
    'OrderBatchAccepted.v2',
    'ParcelRegistered.v1',
    'ParcelRegistered.v2',
  ]);
});
