import type { ParcelEvent } from './events.ts';
import { sampleDelivered, sampleParcelOrder, sampleRegistered } from '../../test/fixtures.ts';
import { evolveParcelView } from './parcelView.ts';
import type { ParcelView } from './parcelView.ts';

const TN = 'PX000000000000001Y';
const at = (iso: string) => new Date(iso);
const events: ParcelEvent[] = [
  sampleRegistered(TN, at('2026-11-22T06:00:00Z')),
  {
    type: 'CarrierRegistered',
    data: {
      trackingNumber: TN,
      carrier: 'LMX',
      partnerTrackingNo: 'LMX123',
      partnerName: 'LMX Express',
      registeredAt: at('2026-11-22T06:00:01Z'),
    },
  },
  {
    type: 'LabelGenerated',
    data: { trackingNumber: TN, labelType: 'CN23', direction: 'horizontal', generatedAt: at('2026-11-22T07:00:00Z') },
  },
  sampleDelivered(TN, at('2026-11-23T02:00:00Z'), {
    remarks: 'Left with guard',
    receiveBy: 'Tan',
    pod: ['pod/1.jpg'],
    recordedAt: at('2026-11-23T02:00:05Z'),
  }),
  {
    type: 'CarrierRegistrationFailed',
    data: { trackingNumber: TN, carrier: 'LMX', attempt: 1, reason: 'down', failedAt: at('2026-11-23T03:00:00Z') },
  },
];

const fold = (list: ParcelEvent[]) =>
  list.reduce<ParcelView | null>(
    (view, event, revision) => evolveParcelView(view, event, { eventId: `e${revision}`, revision }),
    null,
  );

describe('parcel status view', () => {
  const view = fold(events)!;

  test('"Activities: history, most recent first; internal-only records are filtered out"', () => {
    expect(view.activities.map((a) => a.statusCode)).toEqual(['DL_DL', 'LB_GN', 'DR_DR']);
  });

  test('"All timestamps are Singapore time (UTC+08:00)"', () => {
    expect(view.activities.map((a) => a.dateTime)).toEqual([
      '2026-11-23T10:00:00+08:00',
      '2026-11-22T15:00:00+08:00',
      '2026-11-22T14:00:00+08:00',
    ]);
    expect(view.createdAt).toBe('2026-11-22T14:00:00+08:00');
  });

  test('DR_DR "Data Received via API"; a delivery keeps receive_by and pod', () => {
    expect(view.activities[2]).toMatchObject({
      statusCode: 'DR_DR',
      statusDesc: 'Data Received via API',
      receiveBy: '',
      pod: [],
      remarks: '',
    });
    expect(view.activities[0]).toMatchObject({
      statusCode: 'DL_DL',
      statusDesc: 'Parcel delivered',
      receiveBy: 'Tan',
      pod: ['pod/1.jpg'],
      remarks: 'Left with guard',
    });
  });

  test('partner number and name come from the carrier registration; revision is the last event applied', () => {
    expect(view).toMatchObject({
      partnerTrackingNo: 'LMX123',
      partnerName: 'LMX Express',
      revision: 4,
      status: 'active',
      customTrackingNum: 'REF-1',
    });
  });

  test('an unknown carrier code is kept and shown as sent', () => {
    const odd: ParcelEvent = {
      ...events[3]!,
      data: { ...(events[3]!.data as object), carrierCode: 'XY_ZZ', statusCode: 'XY_ZZ' },
    } as ParcelEvent;
    const v = fold([events[0]!, odd])!;
    expect(v.activities[0]).toMatchObject({ statusCode: 'XY_ZZ', statusDesc: 'XY_ZZ' });
  });

  test('cancellation marks the view and adds CN_CN "Order cancelled"', () => {
    const v = fold([
      events[0]!,
      { type: 'ParcelCancelled', data: { trackingNumber: TN, cancelledAt: at('2026-11-22T08:00:00Z') } },
    ])!;
    expect(v.status).toBe('cancelled');
    expect(v.activities[0]).toMatchObject({ statusCode: 'CN_CN', statusDesc: 'Order cancelled' });
  });

  test('finalAt: absent until a final status, then the time of the first one, kept by later events and by erasure', () => {
    expect(fold(events.slice(0, 3))!.finalAt).toBeUndefined();
    expect(view.finalAt).toBe('2026-11-23T10:00:00+08:00');
    const cancelled = fold([
      events[0]!,
      { type: 'ParcelCancelled', data: { trackingNumber: TN, cancelledAt: at('2026-11-22T08:00:00Z') } },
    ])!;
    expect(cancelled.finalAt).toBe('2026-11-22T16:00:00+08:00');
    const erased = evolveParcelView(
      view,
      {
        type: 'PersonalDataErased',
        data: { trackingNumber: TN, reason: 'retention', erasedAt: at('2026-11-24T00:00:00Z') },
      },
      { eventId: 'e5', revision: 5 },
    )!;
    expect(erased.finalAt).toBe(view.finalAt);
  });

  test('finalAt: a view stored before it existed gets it with its next event', () => {
    const { finalAt: _dropped, ...former } = view;
    const next = evolveParcelView(former, events[4]!, { eventId: 'e6', revision: 6 })!;
    expect(next.finalAt).toBe('2026-11-23T10:00:00+08:00');
  });

  test('an event without a registered parcel changes nothing', () => {
    expect(evolveParcelView(null, events[2]!, { eventId: 'x', revision: 2 })).toBeNull();
  });
});

test('PersonalDataErased leaves a view with no personal value: order, remarks, signer, proof of delivery, street location', () => {
  const at = new Date('2026-11-22T06:00:00Z');
  const order = sampleParcelOrder({ instruction: 'MARK-instruction' });
  let view = evolveParcelView(
    null,
    {
      type: 'ParcelRegistered',
      data: { trackingNumber: 'PX1', clientId: 'demo', order, serviceType: 'LMD', carrier: 'LMX', registeredAt: at },
    },
    { eventId: 'e1', revision: 0 },
  );
  view = evolveParcelView(
    view,
    sampleDelivered('PX1', at, {
      location: '1 Raffles Place',
      remarks: 'Left with Mdm Wong',
      receiveBy: 'Mdm Wong',
      pod: ['pod.jpg'],
      recordedAt: at,
    }),
    { eventId: 'e2', revision: 1 },
  );
  const erased = evolveParcelView(
    view,
    { type: 'PersonalDataErased', data: { trackingNumber: 'PX1', reason: 'request', erasedAt: at } },
    { eventId: 'e3', revision: 2 },
  )!;
  const text = JSON.stringify(erased);
  for (const m of [order.recipient.name, order.recipient.phone, 'Raffles', 'Mdm Wong', 'pod.jpg', 'MARK'])
    expect({ m, found: text.includes(m) }).toEqual({ m, found: false });
  expect(erased).toMatchObject({ personalDataErased: true, revision: 2, status: 'active' });
  expect(erased.activities.map((a) => a.statusCode)).toEqual(['DL_DL', 'DR_DR']);
});
