/**
 * POST /carrier-events/{carrierCode} (decisions.md): a carrier's tracking event, signed with
 * `X-Carrier-Signature: sha256=<HMAC-SHA256 of the raw body>`. Carrier-facing, with interface B's
 * envelope: 404 unknown carrier, 401 bad signature, 400 malformed event, 404 unknown parcel;
 * nothing is recorded for any of them.
 */
import { randomUUID } from 'node:crypto';
import type { Router } from 'express';
import { B, Callback, CODE_SUCCESS, Remarks, Topics } from '@parcel-logistics/contracts';
import type { RecordCarrierEvent, RecordCarrierEventReply } from '@parcel-logistics/contracts';
import { parseCarrierEvent, verifyCarrierSignature } from '@parcel-logistics/carriers';
import type { GatewayContext } from '../context.ts';
import { failB, sendB } from '../http/interfaces.ts';
import { mount } from '../http/mount.ts';

export function receivingCarrierEvents(router: Router, ctx: GatewayContext): void {
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
    const reply = await ctx.bus.request<RecordCarrierEventReply>(
      Topics.trackingCommands,
      { id: randomUUID(), key: `${carrier.code}/${partnerTrackingNo}`, type: 'RecordCarrierEvent', payload },
      { timeoutMs: ctx.config.commandTimeoutMs },
    );
    if (!reply.ok) return failB(res, Remarks.noRecord, 404);
    sendB(res, CODE_SUCCESS, B.success, { recorded: reply.recorded });
  });
}
