/** A parcel for the tracking page tests: every personal field filled with a value the page must never show. */
import { pushEvent, registeredParcel } from '../support/carriers.ts';
import type { CarrierTarget } from '../support/carriers.ts';
import { eventually } from '../support/carriers.ts';
import { raw } from '../support/client.ts';
import { uniqueRef } from '../support/orders.ts';
import { startTestStack } from '../support/stack.ts';

export const PERSONAL = {
  recipient_name: 'Siti <b>Nurhaliza</b>',
  recipient_phone: '6598765432',
  recipient_email: 'siti.private@example.com',
  recipient_address: '7 Secret Lane, #05-11',
  declared_value: 123.45,
};

/** Personal values as they could appear in text, and the carrier's remarks, receiver and proof of delivery. */
export const forbiddenTexts = (reference: string) => [
  'Nurhaliza',
  'Siti',
  PERSONAL.recipient_phone,
  PERSONAL.recipient_email,
  '7 Secret Lane',
  '#05-11',
  '123.45',
  reference,
  'Left with neighbour',
  'Mdm Wong',
  'pod/secret.jpg',
  'demo',
  // Carriers' free-text locations: a street address, and a hub name the list does not hold.
  '1 Raffles Place',
  'Raffles',
  'Changi <script>',
  'alert(1)',
];

/**
 * A locker parcel (locker_type B, near 238858), registered with LMX, in transit at a public place,
 * out for delivery at a street address, then delivered at a "hub" with HTML in its name.
 */
export async function trackedParcel(stack: CarrierTarget) {
  const reference = uniqueRef('TRACK');
  const { tn, partner } = await registeredParcel(stack, {
    ...PERSONAL,
    custom_tracking_num: reference,
    postal_code: '238858',
    locker_type: 'B',
    item: [
      {
        description: 'Paperback book',
        unitPrice: 123.45,
        quantity: 1,
        weight: 0.6,
        currency: 'SGD',
        totalValue: 123.45,
      },
    ],
  });
  await pushEvent(stack, {
    partner_tracking_no: partner,
    event_code: 'IN_TRANSIT',
    event_time: '2026-11-23T08:00:00+08:00',
    location: ' singapore  HUB ',
  });
  await pushEvent(stack, {
    partner_tracking_no: partner,
    event_code: 'OUT_FOR_DELIVERY',
    event_time: '2026-11-23T09:00:00+08:00',
    location: '1 Raffles Place',
  });
  await pushEvent(stack, {
    partner_tracking_no: partner,
    event_code: 'DELIVERED',
    event_time: '2026-11-23T10:15:00+08:00',
    location: 'Changi <script>alert(1)</script> Hub',
    remarks: 'Left with neighbour',
    receive_by: 'Mdm Wong',
    pod: ['pod/secret.jpg'],
  });
  return { tn, partner, reference };
}

/** A test stack with a tracked parcel, once its tracking page's JSON shows it delivered. */
export async function stackWithDeliveredParcel() {
  const stack = await startTestStack();
  const parcel = await trackedParcel(stack);
  await eventually(async () =>
    expect((await raw(`${stack.url}/track/${parcel.tn}.json`, {})).body.data.activities[0].status_code).toBe('DL_DL'),
  );
  return { stack, parcel };
}
