/** B3 GET query-status and B4 POST query-multi-status. */
import type { Router } from 'express';
import {
  B,
  check,
  CODE_FAILURE,
  CODE_SUCCESS,
  QueryMultiStatusRequest,
  Remarks,
  TrackingNumQuery,
} from '@parcel-logistics/contracts';
import type { MultiStatusResult } from '@parcel-logistics/contracts/api';
import { accountOf } from '../context.ts';
import { failB, sendB } from '../http/interfaces.ts';
import { mount } from '../http/mount.ts';
import { lookUpEach, type ParcelViewDeps } from '../parcelViews.ts';
import { statusRecordB } from '../statusRecords.ts';

/** What query-status reaches: the parcel view. */
export type QueryingStatusDeps = ParcelViewDeps;

export function queryingStatus(router: Router, ctx: QueryingStatusDeps): void {
  mount(router, ctx, 'queryStatus', async (req, res) => {
    const query = check(TrackingNumQuery, req.query);
    if (!query.ok) return failB(res, query.message);
    const number = query.value.tracking_num;
    const view = await ctx.projections.parcels.getForClient(accountOf(res).clientId, number);
    if (!view) return sendB(res, CODE_FAILURE, B.fail, { tracking_number: number, remarks: Remarks.noRecord });
    sendB(res, CODE_SUCCESS, B.success, statusRecordB(view));
  });

  mount(router, ctx, 'queryMultiStatus', async (req, res) => {
    const body = check(QueryMultiStatusRequest, req.body);
    if (!body.ok) return failB(res, body.message);
    const { records, errors } = await lookUpEach(
      ctx,
      accountOf(res).clientId,
      body.value.tracking_nums,
      statusRecordB,
      (n, remarks) => ({ tracking_number: n, remarks }),
    );
    const data: MultiStatusResult = { success: records, errors };
    sendB(res, CODE_SUCCESS, B.success, data);
  });
}
