/** B6 POST cancel-orders: 1 to 100 numbers, only for accounts allowed to cancel. */
import { randomUUID } from 'node:crypto';
import type { Router } from 'express';
import { B, CancelOrdersRequest, check, CODE_SUCCESS, Topics } from '@parcel-logistics/contracts';
import type { CancelOrders, CancelOrdersReply } from '@parcel-logistics/contracts';
import { accountOf } from '../context.ts';
import type { GatewayContext } from '../context.ts';
import { failB, sendB } from '../http/interfaces.ts';
import { mount } from '../http/mount.ts';

export function cancellingOrders(router: Router, ctx: GatewayContext): void {
  mount(router, ctx, 'cancelOrders', async (req, res) => {
    const account = accountOf(res);
    if (!account.canCancel) return failB(res, B.permissionDenied);
    const body = check(CancelOrdersRequest, req.body);
    if (!body.ok) return failB(res, body.message);
    const payload: CancelOrders['payload'] = { clientId: account.clientId, trackingNumbers: body.value.tracking_nums };
    const reply = await ctx.bus.request<CancelOrdersReply>(
      Topics.orderCommands,
      { id: randomUUID(), key: account.clientId, type: 'CancelOrders', payload },
      { timeoutMs: ctx.config.commandTimeoutMs },
    );
    sendB(res, CODE_SUCCESS, B.success, reply);
  });
}
