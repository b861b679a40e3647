/** A1 POST /api/status/lookup: every number resolved on its own, in submission order. */
import type { Router } from 'express';
import { A, check, CODE_FAILURE, CODE_SUCCESS, Remarks, StatusLookupRequest } from '@parcel-logistics/contracts';
import type { StatusLookupResult } from '@parcel-logistics/contracts/api';
import { accountOf } from '../context.ts';
import type { ProjectionStore } from '@parcel-logistics/projections';
import type { Mounting } from '../context.ts';
import { sendA } from '../http/interfaces.ts';
import { mount } from '../http/mount.ts';
import { statusRecordA } from '../statusRecords.ts';

/** What look-up-status reaches: the parcel view. */
export interface LookingUpStatusDeps extends Mounting {
  projections: Pick<ProjectionStore, 'parcels'>;
}

export function lookingUpStatus(router: Router, ctx: LookingUpStatusDeps): void {
  mount(router, ctx, 'lookUpStatus', async (req, res) => {
    const body = check(StatusLookupRequest, req.body);
    if (!body.ok) return sendA(res, CODE_FAILURE, body.message, []);
    const numbers = body.value.TrackingNumber;
    const found = await ctx.projections.parcels.getManyForClient(accountOf(res).clientId, numbers);
    const data: StatusLookupResult = { Success: [], Errors: [] };
    for (const n of numbers) {
      const view = found.get(n);
      if (view) data.Success.push(statusRecordA(view));
      else data.Errors.push({ TrackingNumber: n, Remarks: Remarks.noRecord });
    }
    sendA(res, CODE_SUCCESS, A.success, data);
  });
}
