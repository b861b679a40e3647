/**
 * Older stored versions of events, read as the current ones. Up to version 1 the
 * parcel's order was stored as the interface B request body (snake_case, weights in the account's
 * unit named beside it); from version 2 as the domain's ParcelOrder. `parcel.events.v1` still
 * speaks version 1, so the way back is kept here beside the way up.
 */
import type { ParcelOrder, WeightUnit } from '@parcel-logistics/domain';
import type { ValidOrder } from './order.ts';
import { toParcelOrder, toValidOrder } from './orderMapping.ts';

type Data = Record<string, unknown>;

/** A v1 registration's fields (data of `ParcelRegistered.v1`, an order of `OrderBatchAccepted.v1`) in v2 words. */
function registrationUp(v1: Data): Data {
  const { order, weightUnit, ...rest } = v1;
  return { ...rest, order: toParcelOrder(order as ValidOrder, weightUnit as WeightUnit) };
}

/** The data of a stored `ParcelRegistered.v2` as `ParcelRegistered.v1` stored it, keys in that order. */
export function parcelRegisteredV1(v2: Data): Data {
  const { clientId, order, serviceType, carrier, lockerStation, trackingNumber, commandId, registeredAt } = v2;
  const o = order as ParcelOrder;
  return {
    clientId,
    order: toValidOrder(o),
    serviceType,
    carrier,
    weightUnit: o.weight.unit,
    ...(lockerStation === undefined ? {} : { lockerStation }),
    trackingNumber,
    ...(commandId === undefined ? {} : { commandId }),
    registeredAt,
  };
}

export interface Upcaster {
  /** The stored type it reads as. */
  to: string;
  up(data: Data): Data;
}

export const UPCASTERS: ReadonlyMap<string, Upcaster> = new Map([
  ['ParcelRegistered.v1', { to: 'ParcelRegistered.v2', up: registrationUp }],
  [
    'OrderBatchAccepted.v1',
    { to: 'OrderBatchAccepted.v2', up: (d: Data) => ({ ...d, orders: (d.orders as Data[]).map(registrationUp) }) },
  ],
]);
