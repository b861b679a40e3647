/** A1 POST /api/status/lookup: every number resolved on its own, in submission order. */
import type { Router } from 'express';
import { A, check, CODE_FAILURE, CODE_SUCCESS, StatusLookupRequest } from '@parcel-logistics/contracts';
import type { StatusLookupResult } from '@parcel-logistics/contracts/api';
import { accountOf } from '../context.ts';
import { sendA } from '../http/interfaces.ts';
import { mount } from '../http/mount.ts';
import { lookUpEach, type ParcelViewDeps } from '../parcelViews.ts';
import { statusRecordA } from '../statusRecords.ts';

/** What look-up-status reaches: the parcel view. */
export type LookingUpStatusDeps = ParcelViewDeps;

export function lookingUpStatus(router: Router, ctx: LookingUpStatusDeps): void {
  mount(router, ctx, 'lookUpStatus', async (req, res) => {
    const body = check(StatusLookupRequest, req.body);
    if (!body.ok) return sendA(res, CODE_FAILURE, body.message, []);
    const { records, errors } = await lookUpEach(
      ctx,
      accountOf(res).clientId,
      body.value.TrackingNumber,
      statusRecordA,
      (n, remarks) => ({ TrackingNumber: n, Remarks: remarks }),
    );
    const data: StatusLookupResult = { Success: records, Errors: errors };
    sendA(res, CODE_SUCCESS, A.success, data);
  });
}
