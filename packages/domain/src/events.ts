/** Every event the domain records, of every stream. */
import type { OrderBatchAccepted } from './batch/events.ts';
import type { ParcelEvent } from './parcel/events.ts';
import type { ReferenceClaimed } from './reference/events.ts';

export type DomainEvent = ParcelEvent | ReferenceClaimed | OrderBatchAccepted;

export const isParcelEvent = (e: DomainEvent): e is ParcelEvent =>
  e.type !== 'ReferenceClaimed' && e.type !== 'OrderBatchAccepted';
