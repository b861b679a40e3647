/** B1 POST create-order: validated here, created by the order service over the bus. */
import { randomUUID } from 'node:crypto';
import type { Router } from 'express';
import {
  B,
  CODE_SUCCESS,
  DEADLINE_HEADER,
  deadlineFor,
  toParcelOrder,
  validateCreateOrder,
} from '@parcel-logistics/contracts';
import type { CreateOrderReply, CreateOrderValidation, SettleCreateOrder } from '@parcel-logistics/contracts';
import type { CreateOrderResult } from '@parcel-logistics/contracts/api';
import type { ParcelRegistration } from '@parcel-logistics/domain';
import { lockerStationFor } from '@parcel-logistics/domain';
import type { Account } from '@parcel-logistics/accounts';
import { accountOf } from '../context.ts';
import type { GatewayCommands, GatewayConfig, GatewayContext, Mounting } from '../context.ts';
import { failB, sendB } from '../http/interfaces.ts';
import { mount } from '../http/mount.ts';

/** A validated order as the order service registers it: in the domain's words, weights in the account's unit. */
export function registrationOf(
  account: Account,
  valid: Extract<CreateOrderValidation, { ok: true }>,
): ParcelRegistration {
  const { order, carrier, serviceType, assignedStation } = valid;
  const parcelOrder = toParcelOrder(order, account.weightUnit);
  const lockerStation = lockerStationFor(parcelOrder, assignedStation);
  return {
    clientId: account.clientId,
    order: parcelOrder,
    serviceType,
    carrier,
    ...(lockerStation ? { lockerStation } : {}),
  };
}

/**
 * The bus failed (a reply lost when a service died, or a produce the broker may or may not have
 * stored). A SettleCreateOrder sent with the command's key is handled after the command itself, so
 * its answer says whether this very command created the order: then it is answered as created.
 * Otherwise (or with no answer) it fails, but not before the command's deadline, after which no
 * handler acts on it: nothing will create it later.
 */
async function settledAfterFailure(
  ctx: Pick<CreatingOrderDeps, 'commands' | 'clock'>,
  error: unknown,
  key: string,
  query: SettleCreateOrder['payload'],
  deadlineMs: number,
): Promise<CreateOrderReply> {
  const settled = await ctx.commands.order('SettleCreateOrder', key, query).catch(() => undefined);
  if (settled?.ok) return settled;
  await new Promise((resolve) => setTimeout(resolve, Math.max(0, deadlineMs - ctx.clock.now().getTime())));
  throw error;
}

/**
 * What create-order reaches: the order service's commands and their timeout (for the deadline),
 * the reference data to validate with, the clock.
 */
export interface CreatingOrderDeps extends Mounting, Pick<GatewayContext, 'ref' | 'clock'> {
  commands: Pick<GatewayCommands, 'order'>;
  config: Pick<GatewayConfig, 'commandTimeoutMs'>;
}

export function creatingOrder(router: Router, ctx: CreatingOrderDeps): void {
  mount(router, ctx, 'createOrder', async (req, res) => {
    const account = accountOf(res);
    const result = validateCreateOrder(req.body as Record<string, unknown>, {
      account,
      ref: ctx.ref,
    });
    if (!result.ok) return failB(res, result.message);
    const { order } = result;
    const payload = registrationOf(account, result);
    const commandId = randomUUID();
    const { commandTimeoutMs } = ctx.config;
    const deadline = deadlineFor(ctx.clock.now().getTime(), commandTimeoutMs);
    const headers = { [DEADLINE_HEADER]: deadline };
    const key = `${account.clientId}/${order.custom_tracking_num}`;
    const reply = await ctx.commands
      .order('CreateOrder', key, payload, { id: commandId, headers })
      .catch((error: unknown) => {
        const query = { clientId: account.clientId, customTrackingNum: order.custom_tracking_num, commandId };
        return settledAfterFailure(ctx, error, key, query, Number(deadline));
      });
    if (!reply.ok && reply.error === 'Expired') throw new Error('create-order command expired before it was handled');
    if (!reply.ok) return failB(res, B.referenceExists(order.custom_tracking_num));
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
