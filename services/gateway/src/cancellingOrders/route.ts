/** B6 POST cancel-orders: 1 to 100 numbers, only for accounts allowed to cancel. */
import type { Router } from 'express';
import { B, CancelOrdersRequest, check, CODE_SUCCESS } from '@parcel-logistics/contracts';
import type { CancelOrders } from '@parcel-logistics/contracts';
import { accountOf } from '../context.ts';
import type { GatewayCommands, Mounting } from '../context.ts';
import { failB, sendB } from '../http/interfaces.ts';
import { mount } from '../http/mount.ts';

/** What cancel-orders reaches: the order service's commands. */
export interface CancellingOrdersDeps extends Mounting {
  commands: Pick<GatewayCommands, 'order'>;
}

export function cancellingOrders(router: Router, ctx: CancellingOrdersDeps): void {
  mount(router, ctx, 'cancelOrders', async (req, res) => {
    const account = accountOf(res);
    if (!account.canCancel) return failB(res, B.permissionDenied);
    const body = check(CancelOrdersRequest, req.body);
    if (!body.ok) return failB(res, body.message);
    const payload: CancelOrders['payload'] = { clientId: account.clientId, trackingNumbers: body.value.tracking_nums };
    const reply = await ctx.commands.order('CancelOrders', account.clientId, payload);
    sendB(res, CODE_SUCCESS, B.success, reply);
  });
}
