/** Commands sent over the bus from the gateway to the services, and their replies. */
import type { ValidOrder } from './order.ts';
import type { AssignedStation } from './views.ts';

export const Topics = {
  orderCommands: 'parcel.commands.order',
  trackingCommands: 'parcel.commands.tracking',
  parcelEvents: 'parcel.events.v1',
  deadLetter: 'parcel.deadletter.v1',
} as const;

export interface CreateOrder {
  type: 'CreateOrder';
  payload: {
    clientId: string;
    order: ValidOrder;
    serviceType: string;
    carrier: string;
    weightUnit: string;
    lockerStation?: AssignedStation;
  };
}

export type CreateOrderReply =
  | { ok: true; trackingNumber: string; createdAt: string }
  | { ok: false; error: 'ReferenceExists' };

export type OrderCommand = CreateOrder;
