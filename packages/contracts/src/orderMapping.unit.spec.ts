/**
 * Design item 13: the order in the domain's words, and the way back to the body's shape that the
 * views and parcel.events.v1 keep. The way there and back loses nothing, to the byte, for every
 * order validation accepts; `ParcelRegistered.v1` data read through the upcaster and mapped back
 * is the stored text again.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import type { ParcelRegistered } from '@parcel-logistics/domain';
import { ORDER_FIELDS, toParcelOrder, toValidOrder } from './orderMapping.ts';
import { deserializeEvent, serializeEvent } from './storedEvents.ts';
import { parcelRegisteredV1 } from './upcasters.ts';
import { bodyArb } from '../test/createOrder.arbitraries.ts';
import { demo, lockerStation, order, other, run } from '../test/createOrder.fixtures.ts';
import { orderRules } from './validation/createOrder.ts';

const accepted = (body: Record<string, unknown>, account = demo) => {
  const result = run(body, account);
  if (!result.ok) throw new Error(result.message);
  return result.order;
};

test('the domain order: camelCase, typed money and weight, dimensions largest first, the normalised postal code', () => {
  const valid = accepted(
    order({
      client_size: ' 20.50 , 7, 31 ',
      client_weight: '2.5',
      postal_code: '04-8616',
      cash: 3,
      cash_currency: 'SGD',
    }),
  );
  const domain = toParcelOrder(valid, 'g');
  expect(domain).toMatchObject({
    reference: valid.custom_tracking_num,
    recipient: { country: 'SG', postalCode: '048616' },
    dimensions: { unit: 'cm', length: '31', width: '20.50', height: '7' },
    weight: { value: 2.5, unit: 'g' },
    declaredValue: { amount: valid.declared_value, currency: valid.declared_value_currency },
    cashOnDelivery: { amount: 3, currency: 'SGD' },
  });
  expect(domain.lines[0]).toMatchObject({
    unitPrice: { currency: 'SGD' },
    totalValue: { currency: 'SGD' },
    weight: { unit: 'g' },
  });
});

test('a locker the client chose is kept with the order, in the domain words', () => {
  const domain = toParcelOrder(accepted(order({ locker_type: 'A', locker_station: lockerStation() })), 'kg');
  expect(domain.locker).toEqual({
    type: 'A',
    station: expect.objectContaining({
      name: expect.any(String),
      addressDetail: expect.any(String),
      code: expect.any(String),
    }),
  });
});

test('ORDER_FIELDS follows the Order table, so the body comes back with its keys in the order validation stored them', () => {
  expect(ORDER_FIELDS.map(([api]) => api)).toEqual(orderRules.map((r) => r.field));
});

test('property: body -> domain -> body gives the accepted order back byte for byte', () => {
  let checked = 0;
  fc.assert(
    fc.property(
      bodyArb,
      fc.constantFrom(demo, other),
      fc.constantFrom('kg', 'g', 'lb') as fc.Arbitrary<'kg' | 'g' | 'lb'>,
      (body, account, unit) => {
        const result = run(body, account);
        if (!result.ok) return;
        checked++;
        expect(JSON.stringify(toValidOrder(toParcelOrder(result.order, unit)))).toBe(JSON.stringify(result.order));
      },
    ),
    { numRuns: 1500 },
  );
  expect(checked).toBeGreaterThan(60);
});

interface Recorded {
  headers: Record<string, string>;
  payload: string;
}
const fixture = path.resolve(import.meta.dirname, '../../../test/fixtures/dataV1/downstream.json');
const storedV1 = (JSON.parse(readFileSync(fixture, 'utf8')) as Recorded[])
  .filter((m) => m.headers['event-type'] === 'ParcelRegistered.v1')
  .map((m) => (JSON.parse(m.payload) as { data: Record<string, unknown> }).data);

test('ParcelRegistered.v1 written by the former code is read as the current event, in the domain words', () => {
  expect(storedV1.length).toBeGreaterThan(5);
  for (const data of storedV1) {
    const event = deserializeEvent({ type: 'ParcelRegistered.v1', data }) as ParcelRegistered;
    expect(event.type).toBe('ParcelRegistered');
    expect(event.data.registeredAt).toEqual(new Date(data.registeredAt as string));
    expect(event.data.order.reference).toBe((data.order as { custom_tracking_num: string }).custom_tracking_num);
    expect(event.data.order.weight.unit).toBe(data.weightUnit);
    expect(event.data).not.toHaveProperty('weightUnit');
    expect(serializeEvent(event).type).toBe('ParcelRegistered.v2');
  }
});

test('ParcelRegistered.v1 upcast, stored as v2 and mapped back for parcel.events.v1 is the stored text again', () => {
  for (const data of storedV1) {
    const v2 = serializeEvent(deserializeEvent({ type: 'ParcelRegistered.v1', data }));
    expect(JSON.stringify(parcelRegisteredV1(v2.data))).toBe(JSON.stringify(data));
  }
});

test('OrderBatchAccepted.v1 is read with its orders in the domain words', () => {
  const registration = JSON.parse(
    JSON.stringify({ ...storedV1[0]!, trackingNumber: undefined, registeredAt: undefined, commandId: undefined }),
  ) as Record<string, unknown>;
  const stored = { batchId: 'b-1', clientId: 'demo', orders: [registration], acceptedAt: '2026-11-20T01:00:00.000Z' };
  const event = deserializeEvent({ type: 'OrderBatchAccepted.v1', data: stored });
  expect(event.type === 'OrderBatchAccepted' && event.data.orders[0]!.order.reference).toBe(
    (registration.order as { custom_tracking_num: string }).custom_tracking_num,
  );
  expect(serializeEvent(event).type).toBe('OrderBatchAccepted.v2');
});
