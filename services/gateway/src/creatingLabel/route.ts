/**
 * A2 POST /api/create-label: the CN23 customs declaration as a Base64 PDF. Matched on the
 * upper-cased Barcode, Origin = sender_country and Destination = recipient_country exactly; a
 * successful call records LB_GN on the parcel.
 */
import type { Router } from 'express';
import { A, check, CODE_FAILURE, CODE_SUCCESS, CreateLabelRequest } from '@parcel-logistics/contracts';
import type { CreateLabel } from '@parcel-logistics/contracts';
import { accountOf } from '../context.ts';
import type { GatewayCommands, GatewayConfig, Mounting } from '../context.ts';
import { answerConcerns } from '../http/idempotency.ts';
import { sendA } from '../http/interfaces.ts';
import { mount } from '../http/mount.ts';

const DIRECTIONS = ['horizontal', 'vertical'] as const;
type Direction = (typeof DIRECTIONS)[number];

/** What create-label reaches: the tracking service's commands, interface A's generic error. */
export interface CreatingLabelDeps extends Mounting {
  commands: Pick<GatewayCommands, 'tracking'>;
  config: Pick<GatewayConfig, 'genericErrorA'>;
}

export function creatingLabel(router: Router, ctx: CreatingLabelDeps): void {
  mount(router, ctx, 'createLabel', async (req, res) => {
    const body = check(CreateLabelRequest, req.body);
    if (!body.ok) return sendA(res, CODE_FAILURE, body.message, []);
    const { Barcode, LabelType, Origin, Destination, Direction: direction = 'horizontal' } = body.value;
    // Specified: any other Direction fails with the generic server-error message (a business error).
    if (!DIRECTIONS.includes(direction as Direction)) return sendA(res, CODE_FAILURE, ctx.config.genericErrorA, []);

    // The tracking service reads the parcel, decides, has it rendered and records LB_GN: one read.
    const { clientId } = accountOf(res);
    const trackingNumber = Barcode.toUpperCase();
    // The label holds the parcel's personal values: a kept answer goes when they are erased.
    answerConcerns(res, [trackingNumber]);
    const payload: CreateLabel['payload'] = {
      clientId,
      trackingNumber,
      origin: Origin,
      destination: Destination,
      labelType: LabelType,
      direction: direction as Direction,
    };
    const reply = await ctx.commands.tracking('CreateLabel', trackingNumber, payload);
    if (reply.ok) return sendA(res, CODE_SUCCESS, A.success, { Base64: reply.content });
    if (reply.error === 'RenderFailed') return sendA(res, CODE_FAILURE, reply.message, []);
    if (reply.error === 'PersonalDataErased') return sendA(res, CODE_FAILURE, A.personalDataErased, []);
    sendA(res, CODE_FAILURE, reply.error === 'ParcelNotFound' ? A.parcelNotFound : A.cannotUndergoOperation, []);
  });
}
