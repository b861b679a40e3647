/** B1 POST create-order: validated here, created by the order service over the bus. */
import { randomUUID } from 'node:crypto';
import type { Router } from 'express';
import { B, CODE_FAILURE, CODE_SUCCESS, DEADLINE_HEADER, deadlineFor, Topics, validateCreateOrder } from '@parcel/contracts';
import { BusTimeoutError } from '@parcel/bus';
import type { AssignedStation, CreateOrder, CreateOrderReply, ValidOrder } from '@parcel/contracts';
import type { StationMatch } from '@parcel/reference-data';
import { accountOf } from '../context.ts';
import type { GatewayContext } from '../context.ts';
import { sendB } from '../http/interfaces.ts';

/** locker_type B: the nearest station; locker_type A: the station as the client sent it. */
export function lockerStationOf(order: ValidOrder, assigned: StationMatch | undefined): AssignedStation | undefined {
  if (assigned) {
    const { code, name, address, addressDetail, zipcode } = assigned.station;
    return { code, name, address, addressDetail, zipcode, distance: Math.round(assigned.distance * 10) / 10 };
  }
  const sent = order.locker_type === 'A' ? order.locker_station : undefined;
  if (!sent) return undefined;
  return {
    code: sent.station_code,
    name: sent.station_name,
    address: sent.station_address,
    addressDetail: sent.address_detail,
    zipcode: sent.zipcode,
    distance: sent.distance,
  };
}

/**
 * The reply was lost (a service died mid-request): if this very command created the parcel, it is
 * answered as created; otherwise the deadline keeps a redelivery from creating it, and it fails.
 */
async function ownOrderAfterTimeout(ctx: GatewayContext, error: unknown, clientId: string, ref: string, commandId: string): Promise<CreateOrderReply> {
  if (!(error instanceof BusTimeoutError)) throw error;
  const view = await ctx.projections.parcels.getByReference(clientId, ref);
  if (view?.createdByCommand !== commandId) throw error;
  return { ok: true, trackingNumber: view.trackingNumber, createdAt: view.createdAt };
}

export function creatingOrder(router: Router, ctx: GatewayContext): void {
  router.post('/v1/openapi/order/create-order', ...ctx.guards.B, async (req, res) => {
    const account = accountOf(res);
    const result = validateCreateOrder(req.body as Record<string, unknown>, { account, ref: ctx.ref });
    if (!result.ok) return sendB(res, CODE_FAILURE, result.message, []);
    const { order, carrier, serviceType, assignedStation } = result;
    const lockerStation = lockerStationOf(order, assignedStation);
    const payload: CreateOrder['payload'] = {
      clientId: account.clientId,
      order,
      serviceType,
      carrier,
      weightUnit: account.weightUnit,
      ...(lockerStation ? { lockerStation } : {}),
    };
    const commandId = randomUUID();
    const { commandTimeoutMs } = ctx.config;
    const headers = { [DEADLINE_HEADER]: deadlineFor(ctx.clock.now().getTime(), commandTimeoutMs) };
    const reply = await ctx.bus
      .request<CreateOrderReply>(
        Topics.orderCommands,
        { id: commandId, key: `${account.clientId}/${order.custom_tracking_num}`, type: 'CreateOrder', payload, headers },
        { timeoutMs: commandTimeoutMs },
      )
      .catch((error: unknown) => ownOrderAfterTimeout(ctx, error, account.clientId, order.custom_tracking_num, commandId));
    if (!reply.ok && reply.error === 'Expired') throw new Error('create-order command expired before it was handled');
    if (!reply.ok) return sendB(res, CODE_FAILURE, B.referenceExists(order.custom_tracking_num), []);
    sendB(res, CODE_SUCCESS, B.success, {
      custom_tracking_num: order.custom_tracking_num,
      wmg_tracking_num: reply.trackingNumber,
      date_time: reply.createdAt,
      status: '',
      error: [],
    });
  });
}
