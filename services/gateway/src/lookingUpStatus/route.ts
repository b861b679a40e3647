/** A1 POST /api/status/lookup: every number resolved on its own, in submission order. */
import type { Router } from 'express';
import { A, check, CODE_FAILURE, CODE_SUCCESS, Remarks, StatusLookupRequest } from '@parcel/contracts';
import { accountOf } from '../context.ts';
import type { GatewayContext } from '../context.ts';
import { sendA } from '../http/interfaces.ts';
import { statusRecordA } from '../statusRecords.ts';

export function lookingUpStatus(router: Router, ctx: GatewayContext): void {
  router.post('/api/status/lookup', ...ctx.guards.A, async (req, res) => {
    const body = check(StatusLookupRequest, req.body);
    if (!body.ok) return sendA(res, CODE_FAILURE, body.message, []);
    const numbers = body.value.TrackingNumber;
    const found = await ctx.projections.parcels.getManyForClient(accountOf(res).clientId, numbers);
    const Success = [];
    const Errors = [];
    for (const n of numbers) {
      const view = found.get(n);
      if (view) Success.push(statusRecordA(view));
      else Errors.push({ TrackingNumber: n, Remarks: Remarks.noRecord });
    }
    sendA(res, CODE_SUCCESS, A.success, { Success, Errors });
  });
}
