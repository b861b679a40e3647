/** B7/B8/B9 GET get-shipping-label(-html|-zpl): the label format follows the parcel's service type. No event. */
import type { Router } from 'express';
import { B, check, CODE_SUCCESS, TrackingNumQuery } from '@parcel-logistics/contracts';
import type { RenderLabel, RenderLabelReply } from '@parcel-logistics/contracts';
import { accountOf } from '../context.ts';
import type { GatewayCommands, Mounting } from '../context.ts';
import { failB, sendB } from '../http/interfaces.ts';
import { mount } from '../http/mount.ts';

const endpoints: { operation: string; format: RenderLabel['payload']['format']; field: string }[] = [
  { operation: 'getShippingLabel', format: 'pdf', field: 'base64' },
  { operation: 'getShippingLabelHtml', format: 'html', field: 'html' },
  { operation: 'getShippingLabelZpl', format: 'zpl', field: 'zpl' },
];

/** The B answer of a label the label service did not render. */
const refusalOf = (reply: Extract<RenderLabelReply, { ok: false }>): string =>
  reply.error === 'RenderFailed'
    ? reply.message
    : reply.error === 'PersonalDataErased'
      ? B.personalDataErased
      : B.orderNotFound;

/** What the shipping-label routes reach: the label service's commands. */
export interface GettingShippingLabelDeps extends Mounting {
  commands: Pick<GatewayCommands, 'label'>;
}

export function gettingShippingLabel(router: Router, ctx: GettingShippingLabelDeps): void {
  for (const { operation, format, field } of endpoints) {
    mount(router, ctx, operation, async (req, res) => {
      const query = check(TrackingNumQuery, req.query);
      if (!query.ok) return failB(res, query.message);
      // Keyed by parcel.
      const trackingNumber = query.value.tracking_num;
      const rendered = await ctx.commands.label('RenderLabel', trackingNumber, {
        clientId: accountOf(res).clientId,
        trackingNumber,
        format,
      });
      if (!rendered.ok) return failB(res, refusalOf(rendered));
      sendB(res, CODE_SUCCESS, B.success, { [field]: rendered.content });
    });
  }
}
