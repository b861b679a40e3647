/**
 * The parcel view as the projections store it and its readers (the query endpoints, the label
 * service, the tracking page) read it: the domain's ParcelView with the order in the interface B
 * body's shape and the account's weight unit beside it, as stored views have always been. The
 * projector maps the domain's view to it and back.
 */
import { finalAtOf } from '@parcel-logistics/domain';
import type { ParcelView, WeightUnit } from '@parcel-logistics/domain';
import type { ValidOrder } from './order.ts';
import { toParcelOrder, toValidOrder } from './orderMapping.ts';

export type StoredParcelView = Omit<ParcelView, 'order'> & { weightUnit: string; order: ValidOrder };

/** The stored shape of a view, keys in the order stored views have always had them. */
export function toStoredParcelView(view: ParcelView): StoredParcelView {
  const { trackingNumber, clientId, customTrackingNum, revision, status, serviceType, carrier, order, ...rest } = view;
  return {
    trackingNumber,
    clientId,
    customTrackingNum,
    revision,
    status,
    serviceType,
    carrier,
    weightUnit: order.weight.unit,
    order: toValidOrder(order),
    ...rest,
  };
}

/** A stored view in the domain's words. */
export function fromStoredParcelView(stored: StoredParcelView): ParcelView {
  const { weightUnit, order, ...rest } = stored;
  return { ...rest, order: toParcelOrder(order, weightUnit as WeightUnit) };
}

/**
 * What the retention sweep asks the views about (`ParcelViewStore.dueForErasure`), in epoch
 * milliseconds: when the parcel was created, and when it became final (null while it is not);
 * null altogether once its personal data is erased, for then nothing is due. A view stored before
 * `finalAt` existed has it from its activities, as the domain's view would.
 */
export function erasureClocksOf(view: StoredParcelView): { createdMs: number; finalMs: number | null } | null {
  if (view.personalDataErased) return null;
  const finalAt = view.finalAt ?? finalAtOf(view.activities);
  return { createdMs: Date.parse(view.createdAt), finalMs: finalAt === undefined ? null : Date.parse(finalAt) };
}
