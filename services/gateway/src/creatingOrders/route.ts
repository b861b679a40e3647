/** B2 POST create-orders: disabled, exactly as specified, unless PARCEL_BATCH_CREATE=on. */
import type { Router } from 'express';
import { B, CODE_FAILURE } from '@parcel/contracts';
import type { GatewayContext } from '../context.ts';
import { sendB } from '../http/interfaces.ts';

export function creatingOrders(router: Router, ctx: GatewayContext): void {
  router.post('/v1/openapi/order/create-orders', ...ctx.guards.B, (_req, res) => {
    if (!ctx.config.batchCreate.enabled) return sendB(res, CODE_FAILURE, B.apiNotFound, []);
    // The enabled shape arrives with the carriers issue; until then the flag changes nothing.
    return sendB(res, CODE_FAILURE, B.apiNotFound, []);
  });
}
