/** B10 GET get-barcode: the platform number of the client's own reference, matched case-sensitively. */
import type { Router } from 'express';
import { B, check, CODE_SUCCESS, CustomTrackingNumQuery } from '@parcel-logistics/contracts';
import { accountOf } from '../context.ts';
import { failB, sendB } from '../http/interfaces.ts';
import { mount } from '../http/mount.ts';
import { type ParcelViewDeps } from '../parcelViews.ts';

/** What get-barcode reaches: the parcel view. */
export type GettingBarcodeDeps = ParcelViewDeps;

export function gettingBarcode(router: Router, ctx: GettingBarcodeDeps): void {
  mount(router, ctx, 'getBarcode', async (req, res) => {
    const query = check(CustomTrackingNumQuery, req.query);
    if (!query.ok) return failB(res, query.message);
    const view = await ctx.projections.parcels.getByReference(accountOf(res).clientId, query.value.custom_tracking_num);
    if (!view) return failB(res, B.orderNotFound);
    sendB(res, CODE_SUCCESS, B.success, { barcode: view.trackingNumber });
  });
}
