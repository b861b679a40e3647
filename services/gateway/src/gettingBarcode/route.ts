/** B10 GET get-barcode: the platform number of the client's own reference, matched case-sensitively. */
import type { Router } from 'express';
import { B, check, CODE_FAILURE, CODE_SUCCESS, queryParam } from '@parcel/contracts';
import { accountOf } from '../context.ts';
import type { GatewayContext } from '../context.ts';
import { sendB } from '../http/interfaces.ts';

const customTrackingNum = queryParam('custom_tracking_num');

export function gettingBarcode(router: Router, ctx: GatewayContext): void {
  router.get('/v1/openapi/order/get-barcode', ...ctx.guards.B, async (req, res) => {
    const param = check(customTrackingNum, req.query.custom_tracking_num);
    if (!param.ok) return sendB(res, CODE_FAILURE, param.message, []);
    const view = await ctx.projections.parcels.getByReference(accountOf(res).clientId, param.value);
    if (!view) return sendB(res, CODE_FAILURE, B.orderNotFound, []);
    sendB(res, CODE_SUCCESS, B.success, { barcode: view.trackingNumber });
  });
}
