/**
 * POST get-shipping-labels: 1 to 100 of the account's numbers as one PDF (a 4 x 6 in page a label, or
 * four an A4 page) or one ZPL document. The tracking service decides, has the document rendered and
 * records LB_GN on each labelled parcel (docs/bulk.md, "Many labels in one document").
 */
import type { Router } from 'express';
import { B, check, CODE_SUCCESS, GetShippingLabelsRequest } from '@parcel-logistics/contracts';
import type { CreateLabels, LabelRefusal } from '@parcel-logistics/contracts';
import { accountOf } from '../context.ts';
import type { GatewayCommands, Mounting } from '../context.ts';
import { answerConcerns } from '../http/idempotency.ts';
import { failB, sendB } from '../http/interfaces.ts';
import { mount } from '../http/mount.ts';

/** Each refusal's remark: the texts of the single-label operations. */
const REMARKS: Record<LabelRefusal, string> = {
  ParcelNotFound: B.orderNotFound,
  PersonalDataErased: B.personalDataErased,
  SelfLabelNotAllowed: B.cannotUndergoOperation,
};

/** What get-shipping-labels reaches: the tracking service's commands. */
export interface GettingShippingLabelsDeps extends Mounting {
  commands: Pick<GatewayCommands, 'tracking'>;
}

export function gettingShippingLabels(router: Router, ctx: GettingShippingLabelsDeps): void {
  mount(router, ctx, 'getShippingLabels', async (req, res) => {
    const body = check(GetShippingLabelsRequest, req.body);
    if (!body.ok) return failB(res, body.message);
    const { clientId } = accountOf(res);
    const { tracking_nums, format, layout } = body.value;
    // A number asked twice is labelled once, where it was first asked.
    const trackingNumbers = [...new Set(tracking_nums)];
    // The labels hold the parcels' personal values: a kept answer goes when any of them is erased.
    answerConcerns(res, trackingNumbers);
    const payload: CreateLabels['payload'] = { clientId, trackingNumbers, format, layout };
    const reply = await ctx.commands.tracking('CreateLabels', clientId, payload);
    if (!reply.ok) return failB(res, reply.message);
    const document = reply.content === undefined ? {} : { [format === 'pdf' ? 'base64' : 'zpl']: reply.content };
    sendB(res, CODE_SUCCESS, B.success, {
      ...document,
      labels: reply.labelled,
      errors: reply.refused.map((r) => ({ tracking_number: r.trackingNumber, remarks: REMARKS[r.error] })),
    });
  });
}
