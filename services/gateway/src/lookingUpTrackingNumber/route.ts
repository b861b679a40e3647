/** POST /api/tracking-number: the platform number of the client's own reference (decisions.md). */
import type { Router } from 'express';
import { A, check, CODE_FAILURE, CODE_SUCCESS, TrackingNumberRequest } from '@parcel-logistics/contracts';
import { accountOf } from '../context.ts';
import { sendA } from '../http/interfaces.ts';
import { mount } from '../http/mount.ts';
import { type ParcelViewDeps } from '../parcelViews.ts';

/** What look-up-tracking-number reaches: the parcel view. */
export type LookingUpTrackingNumberDeps = ParcelViewDeps;

export function lookingUpTrackingNumber(router: Router, ctx: LookingUpTrackingNumberDeps): void {
  mount(router, ctx, 'lookUpTrackingNumber', async (req, res) => {
    const body = check(TrackingNumberRequest, req.body);
    if (!body.ok) return sendA(res, CODE_FAILURE, body.message, []);
    const view = await ctx.projections.parcels.getByReference(accountOf(res).clientId, body.value.Barcode);
    if (!view) return sendA(res, CODE_FAILURE, A.parcelNotFound, []);
    sendA(res, CODE_SUCCESS, A.success, { TrackingNumber: view.trackingNumber });
  });
}
