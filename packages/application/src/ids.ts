import { randomUUID } from 'node:crypto';
import { newTrackingNumber } from '@parcel-logistics/domain';

/** Generated ids are inputs of the handlers, so tests can fix them. */
export interface Ids {
  eventId(): string;
  trackingNumber(): string;
}

export const randomIds: Ids = { eventId: randomUUID, trackingNumber: () => newTrackingNumber() };
