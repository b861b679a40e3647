/**
 * The view evolves in the domain's words; the projections keep storing it as they always have:
 * the order as the interface B body with the weight unit beside it, keys in the same order.
 */
import { evolveParcelView } from '@parcel-logistics/domain';
import type { ParcelEvent } from '@parcel-logistics/domain';
import { sampleParcelOrder } from '@parcel-logistics/domain/testing';
import { toValidOrder } from './orderMapping.ts';
import { erasureClocksOf, fromStoredParcelView, toStoredParcelView } from './views.ts';

const registered: ParcelEvent = {
  type: 'ParcelRegistered',
  data: {
    clientId: 'demo',
    order: sampleParcelOrder({}, 'g'),
    serviceType: 'LMD',
    carrier: 'LMX',
    lockerStation: {
      code: 'SGL0001',
      name: 'Locker',
      address: '5 Raffles Place',
      addressDetail: 'B1',
      zipcode: '048618',
      distance: 12.5,
    },
    trackingNumber: 'PX000000000000001Y',
    commandId: 'c-1',
    registeredAt: new Date('2026-11-22T06:00:00Z'),
  },
};
const view = evolveParcelView(null, registered, { eventId: 'e0', revision: 0 })!;

test('the stored view has the keys stored views have always had, in their order', () => {
  expect(Object.keys(toStoredParcelView(view))).toEqual([
    'trackingNumber',
    'clientId',
    'customTrackingNum',
    'revision',
    'status',
    'serviceType',
    'carrier',
    'weightUnit',
    'order',
    'lockerStation',
    'partnerTrackingNo',
    'partnerName',
    'createdAt',
    'createdByCommand',
    'activities',
  ]);
});

test('the stored view keeps the order as the interface B body, with the weight unit beside it', () => {
  const stored = toStoredParcelView(view);
  expect(stored.weightUnit).toBe('g');
  expect(stored.order).toEqual(toValidOrder(view.order));
  expect(stored.order).toMatchObject({ custom_tracking_num: 'REF-1', sender_country: 'SG', client_size: '30,20,10' });
});

test('a stored view read in the domain words and stored again is the same text', () => {
  const text = JSON.stringify(toStoredParcelView(view));
  const read = fromStoredParcelView(JSON.parse(text));
  expect(read).toEqual(view);
  expect(JSON.stringify(toStoredParcelView(read))).toBe(text);
});

test('the retention clocks of a view: its creation, its final status (also of a view stored before finalAt), none once erased', () => {
  const stored = toStoredParcelView(view);
  expect(erasureClocksOf(stored)).toEqual({ createdMs: Date.parse('2026-11-22T06:00:00Z'), finalMs: null });
  const cancelled = toStoredParcelView(
    evolveParcelView(
      view,
      {
        type: 'ParcelCancelled',
        data: { trackingNumber: view.trackingNumber, cancelledAt: new Date('2026-11-23T06:00:00Z') },
      },
      { eventId: 'e1', revision: 1 },
    )!,
  );
  const finalMs = Date.parse('2026-11-23T06:00:00Z');
  expect(erasureClocksOf(cancelled)).toEqual({ createdMs: Date.parse('2026-11-22T06:00:00Z'), finalMs });
  const { finalAt: _absent, ...former } = cancelled;
  expect(erasureClocksOf(former)).toEqual({ createdMs: Date.parse('2026-11-22T06:00:00Z'), finalMs });
  expect(erasureClocksOf({ ...cancelled, personalDataErased: true })).toBeNull();
});
