/**
 * POST /carrier-events/{carrierCode} (decisions.md): a carrier's tracking event, signed with
 * `X-Carrier-Signature: sha256=<HMAC-SHA256 of the raw body>`. Carrier-facing, with interface B's
 * envelope: 404 unknown carrier, 401 bad signature, 400 malformed event, 404 unknown parcel;
 * nothing is recorded for any of them.
 */
import type { Router } from 'express';
import { B, Callback, CODE_SUCCESS, Remarks } from '@parcel-logistics/contracts';
import type { RecordCarrierEvent } from '@parcel-logistics/contracts';
import { parseCarrierEvent, verifyCarrierSignature } from '@parcel-logistics/carriers';
import type { GatewayCommands, GatewayContext, Mounting } from '../context.ts';
import { failB, sendB } from '../http/interfaces.ts';
import { mount } from '../http/mount.ts';

/**
 * What the carrier callback reaches: the tracking service's commands, the reference data (carriers
 * and their secrets).
 */
export interface ReceivingCarrierEventsDeps extends Mounting, Pick<GatewayContext, 'ref'> {
  commands: Pick<GatewayCommands, 'tracking'>;
}

export function receivingCarrierEvents(router: Router, ctx: ReceivingCarrierEventsDeps): void {
  mount(router, ctx, 'receiveCarrierEvent', async (req, res) => {
    const carrier = ctx.ref.carriers.get(String(req.params.carrierCode));
    if (!carrier?.eventSecret) return failB(res, Callback.unknownCarrier, 404);
    const raw = res.locals.rawBody as Buffer;
    if (!verifyCarrierSignature(raw, req.header('x-carrier-signature'), carrier.eventSecret)) {
      return failB(res, B.authInvalid(Callback.signatureHeader), 401);
    }
    const parsed = parseCarrierEvent(req.body);
    if (!parsed.ok) return failB(res, parsed.message, 400);
    const { partnerTrackingNo, carrierCode, eventTime, location, remarks, receiveBy, pod } = parsed.event;
    const payload: RecordCarrierEvent['payload'] = {
      carrier: carrier.code,
      partnerTrackingNo,
      carrierCode,
      eventTime: eventTime.toISOString(),
      location,
      remarks,
      receiveBy,
      pod,
    };
    const key = `${carrier.code}/${partnerTrackingNo}`;
    const reply = await ctx.commands.tracking('RecordCarrierEvent', key, payload);
    if (!reply.ok) return failB(res, Remarks.noRecord, 404);
    sendB(res, CODE_SUCCESS, B.success, { recorded: reply.recorded });
  });
}
