/** B3 GET query-status and B4 POST query-multi-status. */
import type { Router } from 'express';
import { B, check, CODE_FAILURE, CODE_SUCCESS, QueryMultiStatusRequest, queryParam, Remarks } from '@parcel/contracts';
import { accountOf } from '../context.ts';
import type { GatewayContext } from '../context.ts';
import { sendB } from '../http/interfaces.ts';
import { statusRecordB } from '../statusRecords.ts';

const trackingNum = queryParam('tracking_num');

export function queryingStatus(router: Router, ctx: GatewayContext): void {
  router.get('/v1/openapi/order/query-status', ...ctx.guards.B, async (req, res) => {
    const param = check(trackingNum, req.query.tracking_num);
    if (!param.ok) return sendB(res, CODE_FAILURE, param.message, []);
    const view = await ctx.projections.parcels.getForClient(accountOf(res).clientId, param.value);
    if (!view) return sendB(res, CODE_FAILURE, B.fail, { tracking_number: param.value, remarks: Remarks.noRecord });
    sendB(res, CODE_SUCCESS, B.success, statusRecordB(view));
  });

  router.post('/v1/openapi/order/query-multi-status', ...ctx.guards.B, async (req, res) => {
    const body = check(QueryMultiStatusRequest, req.body);
    if (!body.ok) return sendB(res, CODE_FAILURE, body.message, []);
    const numbers = body.value.tracking_nums;
    const found = await ctx.projections.parcels.getManyForClient(accountOf(res).clientId, numbers);
    const success = [];
    const errors = [];
    for (const n of numbers) {
      const view = found.get(n);
      if (view) success.push(statusRecordB(view));
      else errors.push({ tracking_number: n, remarks: Remarks.noRecord });
    }
    sendB(res, CODE_SUCCESS, B.success, { success, errors });
  });
}
