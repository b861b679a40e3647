/** B7/B8/B9 GET get-shipping-label(-html|-zpl): the label format follows the parcel's service type. No event. */
import type { Router } from 'express';
import { B, check, CODE_FAILURE, CODE_SUCCESS, queryParam } from '@parcel/contracts';
import type { RenderLabel } from '@parcel/contracts';
import { accountOf } from '../context.ts';
import type { GatewayContext } from '../context.ts';
import { sendB } from '../http/interfaces.ts';
import { renderLabel } from '../labels.ts';

const trackingNum = queryParam('tracking_num');

const endpoints: { path: string; format: RenderLabel['payload']['format']; field: string }[] = [
  { path: 'get-shipping-label', format: 'pdf', field: 'base64' },
  { path: 'get-shipping-label-html', format: 'html', field: 'html' },
  { path: 'get-shipping-label-zpl', format: 'zpl', field: 'zpl' },
];

export function gettingShippingLabel(router: Router, ctx: GatewayContext): void {
  for (const { path, format, field } of endpoints) {
    router.get(`/v1/openapi/order-shipping-label/${path}`, ...ctx.guards.B, async (req, res) => {
      const param = check(trackingNum, req.query.tracking_num);
      if (!param.ok) return sendB(res, CODE_FAILURE, param.message, []);
      const rendered = await renderLabel(ctx, { clientId: accountOf(res).clientId, trackingNumber: param.value, format });
      if (!rendered.ok) return sendB(res, CODE_FAILURE, rendered.error === 'ParcelNotFound' ? B.orderNotFound : rendered.message, []);
      sendB(res, CODE_SUCCESS, B.success, { [field]: rendered.content });
    });
  }
}
