/** B1 POST create-order: validated here, created by the order service over the bus. */
import { randomUUID } from 'node:crypto';
import type { Router } from 'express';
import { B, CODE_FAILURE, CODE_SUCCESS, DEADLINE_HEADER, deadlineFor, toParcelOrder, Topics, validateCreateOrder } from '@parcel/contracts';
import type { AssignedStation, CreateOrderReply, CreateOrderValidation, ParcelRegistration, ValidOrder } from '@parcel/contracts';
import type { CreateOrderResult } from '@parcel/contracts/api';
import type { Account, StationMatch } from '@parcel/reference-data';
import { accountOf } from '../context.ts';
import type { GatewayContext } from '../context.ts';
import { sendB } from '../http/interfaces.ts';
import { mount } from '../http/mount.ts';

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

/** A validated order as the order service registers it: in the domain's words, weights in the account's unit. */
export function registrationOf(account: Account, valid: Extract<CreateOrderValidation, { ok: true }>): ParcelRegistration {
  const { order, carrier, serviceType, assignedStation } = valid;
  const lockerStation = lockerStationOf(order, assignedStation);
  return { clientId: account.clientId, order: toParcelOrder(order, account.weightUnit), serviceType, carrier, ...(lockerStation ? { lockerStation } : {}) };
}

const OWN_ORDER_POLL_MS = 250;
const OWN_ORDER_GRACE_MS = 3000;

/**
 * The bus failed (a reply lost when a service died, or a produce the broker may or may not have
 * stored). After the command's deadline no handler acts on it any more, so the gateway waits for
 * the deadline, then looks for a parcel created by this very command (its view may come from the
 * tracking service's repair, hence the short grace): found, it is answered as created; not found,
 * it fails, and nothing will create it later.
 */
async function ownOrderAfterFailure(ctx: GatewayContext, error: unknown, clientId: string, ref: string, commandId: string, deadlineMs: number): Promise<CreateOrderReply> {
  const settle = Math.max(0, deadlineMs - ctx.clock.now().getTime());
  await new Promise((resolve) => setTimeout(resolve, settle));
  for (let waited = 0; waited <= OWN_ORDER_GRACE_MS; waited += OWN_ORDER_POLL_MS) {
    const view = await ctx.projections.parcels.getByReference(clientId, ref).catch(() => null);
    if (view?.createdByCommand === commandId) return { ok: true, trackingNumber: view.trackingNumber, createdAt: view.createdAt };
    if (view) break;
    await new Promise((resolve) => setTimeout(resolve, OWN_ORDER_POLL_MS));
  }
  throw error;
}

export function creatingOrder(router: Router, ctx: GatewayContext): void {
  mount(router, ctx, 'createOrder', async (req, res) => {
    const account = accountOf(res);
    const result = validateCreateOrder(req.body as Record<string, unknown>, { account, ref: ctx.ref });
    if (!result.ok) return sendB(res, CODE_FAILURE, result.message, []);
    const { order } = result;
    const payload = registrationOf(account, result);
    const commandId = randomUUID();
    const { commandTimeoutMs } = ctx.config;
    const deadline = deadlineFor(ctx.clock.now().getTime(), commandTimeoutMs);
    const headers = { [DEADLINE_HEADER]: deadline };
    const reply = await ctx.bus
      .request<CreateOrderReply>(
        Topics.orderCommands,
        { id: commandId, key: `${account.clientId}/${order.custom_tracking_num}`, type: 'CreateOrder', payload, headers },
        { timeoutMs: commandTimeoutMs },
      )
      .catch((error: unknown) => ownOrderAfterFailure(ctx, error, account.clientId, order.custom_tracking_num, commandId, Number(deadline)));
    if (!reply.ok && reply.error === 'Expired') throw new Error('create-order command expired before it was handled');
    if (!reply.ok) return sendB(res, CODE_FAILURE, B.referenceExists(order.custom_tracking_num), []);
    const data: CreateOrderResult = {
      custom_tracking_num: order.custom_tracking_num,
      wmg_tracking_num: reply.trackingNumber,
      date_time: reply.createdAt,
      status: '',
      error: [],
    };
    sendB(res, CODE_SUCCESS, B.success, data);
  });
}
