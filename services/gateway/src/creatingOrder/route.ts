/** B1 POST create-order: validated here, created by the order service over the bus. */
import { randomUUID } from 'node:crypto';
import type { Router } from 'express';
import { B, CODE_FAILURE, CODE_SUCCESS, DEADLINE_HEADER, deadlineFor, toParcelOrder, Topics, validateCreateOrder } from '@parcel/contracts';
import type { CreateOrderReply, CreateOrderValidation, ParcelRegistration } from '@parcel/contracts';
import type { CreateOrderResult } from '@parcel/contracts/api';
import { lockerStationFor, parcelRules } from '@parcel/domain';
import type { Account } from '@parcel/reference-data';
import { accountOf } from '../context.ts';
import type { GatewayContext } from '../context.ts';
import { sendB } from '../http/interfaces.ts';
import { mount } from '../http/mount.ts';

/** A validated order as the order service registers it: in the domain's words, weights in the account's unit. */
export function registrationOf(account: Account, valid: Extract<CreateOrderValidation, { ok: true }>): ParcelRegistration {
  const { order, carrier, serviceType, assignedStation } = valid;
  const parcelOrder = toParcelOrder(order, account.weightUnit);
  const lockerStation = lockerStationFor(parcelOrder, assignedStation);
  return { clientId: account.clientId, order: parcelOrder, serviceType, carrier, ...(lockerStation ? { lockerStation } : {}) };
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
    const result = validateCreateOrder(req.body as Record<string, unknown>, { account, ref: ctx.ref, rules: parcelRules });
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
