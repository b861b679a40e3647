import type { ParcelOrder, WeightUnit } from '../src/parcel/order.ts';
import type { CarrierEventRecorded, ParcelRegistered } from '../src/parcel/events.ts';

/** A sample order in the domain's words, as a create-order command carries it (weights in `unit`). */
export const sampleParcelOrder = (overrides: Partial<ParcelOrder> = {}, unit: WeightUnit = 'kg'): ParcelOrder => ({
  reference: 'REF-1',
  recipient: {
    name: 'Tan Ah Kow',
    country: 'SG',
    phone: '6591234567',
    address: '1 Raffles Place',
    postalCode: '048616',
  },
  sender: { country: 'SG' },
  dimensions: { unit: 'cm', length: '30', width: '20', height: '10' },
  weight: { value: 1.5, unit },
  declaredValue: { amount: 20, currency: 'SGD' },
  lines: [
    {
      description: 'Book',
      unitPrice: { amount: 20, currency: 'SGD' },
      quantity: 1,
      weight: { value: 1.5, unit },
      totalValue: { currency: 'SGD', amount: 20 },
    },
  ],
  ...overrides,
});

/** A parcel's first event: the sample order registered for `demo` with LMX's last-mile service. */
export const sampleRegistered = (
  trackingNumber: string,
  registeredAt: Date,
  order: ParcelOrder = sampleParcelOrder(),
): ParcelRegistered => ({
  type: 'ParcelRegistered',
  data: { trackingNumber, clientId: 'demo', order, serviceType: 'LMD', carrier: 'LMX', registeredAt },
});

/**
 * A delivery LMX reported for `trackingNumber` at `eventTime`, at a public place, with no signer or
 * proof, recorded a second later; `data` besides.
 */
export const sampleDelivered = (
  trackingNumber: string,
  eventTime: Date,
  data: Partial<CarrierEventRecorded['data']> = {},
): CarrierEventRecorded => ({
  type: 'CarrierEventRecorded',
  data: {
    trackingNumber,
    carrier: 'LMX',
    carrierCode: 'DELIVERED',
    statusCode: 'DL_DL',
    eventTime,
    location: 'SG',
    remarks: '',
    receiveBy: '',
    pod: [],
    recordedAt: new Date(eventTime.getTime() + 1000),
    ...data,
  },
});
