/** Every event the domain records, of every stream. */
import type { OrderBatchAccepted } from './batch/events.ts';
import type { ManifestEvent } from './manifest/events.ts';
import type { OrderImportEvent } from './orderImport/events.ts';
import type { ParcelEvent } from './parcel/events.ts';
import type { ReferenceClaimed } from './reference/events.ts';

export type DomainEvent = ParcelEvent | ReferenceClaimed | OrderBatchAccepted | OrderImportEvent | ManifestEvent;

/** Every parcel event's type: the compiler asks for a new one here. */
const PARCEL_EVENT_TYPES: Record<ParcelEvent['type'], true> = {
  ParcelRegistered: true,
  PersonalDataErased: true,
  LabelGenerated: true,
  ParcelCancelled: true,
  CarrierRegistered: true,
  CarrierRegistrationFailed: true,
  CarrierEventRecorded: true,
  ParcelManifested: true,
};

export const isParcelEvent = (e: DomainEvent): e is ParcelEvent => Object.hasOwn(PARCEL_EVENT_TYPES, e.type);
