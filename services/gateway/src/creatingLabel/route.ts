/**
 * A2 POST /api/create-label: the CN23 customs declaration as a Base64 PDF. Matched on the
 * upper-cased Barcode, Origin = sender_country and Destination = recipient_country exactly; a
 * successful call records LB_GN on the parcel.
 */
import { randomUUID } from 'node:crypto';
import type { Router } from 'express';
import { A, check, CODE_FAILURE, CODE_SUCCESS, CreateLabelRequest, Topics } from '@parcel/contracts';
import type { RecordLabel, RecordLabelReply } from '@parcel/contracts';
import { labelRefusal, selfLabelServiceTypes } from '@parcel/domain';
import { accountOf } from '../context.ts';
import type { GatewayContext } from '../context.ts';
import { sendA } from '../http/interfaces.ts';
import { mount } from '../http/mount.ts';
import { renderLabel } from '../labels.ts';

const DIRECTIONS = ['horizontal', 'vertical'] as const;
type Direction = (typeof DIRECTIONS)[number];

export function creatingLabel(router: Router, ctx: GatewayContext): void {
  mount(router, ctx, 'createLabel', async (req, res) => {
    const body = check(CreateLabelRequest, req.body);
    if (!body.ok) return sendA(res, CODE_FAILURE, body.message, []);
    const { Barcode, LabelType, Origin, Destination, Direction: direction = 'horizontal' } = body.value;
    // Specified: any other Direction fails with the generic server-error message (a business error).
    if (!DIRECTIONS.includes(direction as Direction)) return sendA(res, CODE_FAILURE, ctx.config.genericErrorA, []);

    const { clientId } = accountOf(res);
    const trackingNumber = Barcode.toUpperCase();
    const view = await ctx.projections.parcels.getForClient(clientId, trackingNumber);
    const parcel = view && { clientId: view.clientId, serviceType: view.serviceType, origin: view.order.sender_country, destination: view.order.recipient_country };
    const refusal = labelRefusal(parcel ?? undefined, { clientId, origin: Origin, destination: Destination, selfLabelServiceTypes: selfLabelServiceTypes(ctx.ref) });
    if (refusal) return sendA(res, CODE_FAILURE, refusal === 'ParcelNotFound' ? A.parcelNotFound : A.cannotUndergoOperation, []);

    const rendered = await renderLabel(ctx, { clientId, trackingNumber, format: 'cn23', direction: direction as Direction });
    if (!rendered.ok) return sendA(res, CODE_FAILURE, rendered.error === 'ParcelNotFound' ? A.parcelNotFound : rendered.message, []);

    const payload: RecordLabel['payload'] = { clientId, trackingNumber, origin: Origin, destination: Destination, labelType: LabelType, direction: direction as Direction };
    const recorded = await ctx.bus.request<RecordLabelReply>(
      Topics.trackingCommands,
      { id: randomUUID(), key: trackingNumber, type: 'RecordLabel', payload },
      { timeoutMs: ctx.config.commandTimeoutMs },
    );
    if (!recorded.ok) return sendA(res, CODE_FAILURE, recorded.error === 'ParcelNotFound' ? A.parcelNotFound : A.cannotUndergoOperation, []);
    sendA(res, CODE_SUCCESS, A.success, { Base64: rendered.content });
  });
}
