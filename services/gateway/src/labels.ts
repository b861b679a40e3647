import { randomUUID } from 'node:crypto';
import { Topics } from '@parcel-logistics/contracts';
import type { RenderLabel, RenderLabelReply } from '@parcel-logistics/contracts';
import type { GatewayContext } from './context.ts';

/** Asks the label service to render; keyed by parcel. */
export const renderLabel = (ctx: GatewayContext, payload: RenderLabel['payload']) =>
  ctx.bus.request<RenderLabelReply>(
    Topics.labelCommands,
    { id: randomUUID(), key: payload.trackingNumber, type: 'RenderLabel', payload },
    { timeoutMs: ctx.config.commandTimeoutMs },
  );
