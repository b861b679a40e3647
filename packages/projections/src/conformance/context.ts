import { randomUUID } from 'node:crypto';
import type { StoredParcelView } from '@parcel-logistics/contracts';
import type { ProjectionStore } from '../port.ts';

export interface ProjectionStoreHarness {
  store: ProjectionStore;
  /** Opens the same data again after `store.close()`; omitted for stores that do not persist. */
  reopen?: () => Promise<ProjectionStore>;
  /** Closes the store (close is idempotent) and removes its data. */
  cleanup: () => Promise<void>;
}

/** Per-test state. Ids carry a per-test prefix, so a shared database works too. */
export interface Context {
  readonly harness: ProjectionStoreHarness;
  readonly store: ProjectionStore;
  /** A per-test unique id with a readable label. */
  id(label: string): string;
}

export function createContext(make: () => Promise<ProjectionStoreHarness>) {
  let current: { harness: ProjectionStoreHarness; prefix: string } | undefined;
  const get = () => {
    if (!current) throw new Error('no store: the conformance context is used outside a test');
    return current;
  };
  const context: Context = {
    get harness() {
      return get().harness;
    },
    get store() {
      return get().harness.store;
    },
    id: (label) => `${get().prefix}${label}`,
  };
  return {
    context,
    async setUp() {
      current = { harness: await make(), prefix: `T${randomUUID().slice(0, 8).toUpperCase()}` };
    },
    async tearDown() {
      const harness = current?.harness;
      current = undefined;
      await harness?.cleanup();
    },
  };
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
