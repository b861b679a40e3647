import { randomUUID } from 'node:crypto';
import type { StoredParcelView } from '@parcel-logistics/contracts';
import { createStoreContext, type StoreContext, type StoreHarness } from '@parcel-logistics/conformance';
import type { ProjectionStore } from '../port.ts';

export type ProjectionStoreHarness = StoreHarness<ProjectionStore>;

/** Per-test state. Ids carry a per-test prefix, so a shared database works too. */
export interface Context extends StoreContext<ProjectionStore> {
  /** A per-test unique id with a readable label. */
  id(label: string): string;
}

export function createContext(make: () => Promise<ProjectionStoreHarness>) {
  const store = createStoreContext(make, () => `T${randomUUID().slice(0, 8).toUpperCase()}`);
  const context: Context = Object.assign(store.context, {
    id: (label: string) => `${store.context.prefix}${label}`,
  });
  return { ...store, context };
}

export function parcelView(
  fields: Pick<StoredParcelView, 'trackingNumber' | 'clientId'> & Partial<StoredParcelView>,
): StoredParcelView {
  const customTrackingNum = fields.customTrackingNum ?? `REF-${fields.trackingNumber}`;
  return {
    customTrackingNum,
    revision: 0,
    status: 'active',
    serviceType: 'LMD',
    carrier: 'LMX',
    weightUnit: 'kg',
    order: {
      custom_tracking_num: customTrackingNum,
      recipient_name: 'Tan Ah Kow',
      recipient_country: 'SG',
      recipient_phone: '+6591234567',
      recipient_address: '1 Fusionopolis Way',
      sender_country: 'SG',
      client_size: '30,20,10',
      client_weight: 1.25,
      declared_value: 20,
      declared_value_currency: 'SGD',
      item: [{ description: 'Book', unitPrice: 20, quantity: 1, weight: 1.25, currency: 'SGD', totalValue: 20 }],
      postal_code: '138632',
    },
    partnerTrackingNo: '',
    partnerName: 'LMX',
    createdAt: '2026-11-22T14:05:09+08:00',
    activities: [
      {
        dateTime: '2026-11-22T14:05:09+08:00',
        statusCode: 'CREATED',
        statusDesc: 'Order created',
        remarks: '',
        receiveBy: '',
        pod: [],
        location: 'Singapore',
        eventId: 'evt-1',
      },
    ],
    ...fields,
  };
}
