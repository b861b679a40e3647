/**
 * The label service: renders on demand from the parcel view (RenderLabel on the bus). Another
 * account's parcel reads as missing. A rendering failure is answered as a value, its message passed on.
 */
import { Topics } from '@parcel/contracts';
import type { RenderLabel, RenderLabelReply } from '@parcel/contracts';
import type { Bus, Message, Unsubscribe } from '@parcel/bus';
import type { ParcelViewStore } from '@parcel/projections';
import type { LabelRenderer } from './types.ts';

export async function renderLabel(deps: { views: ParcelViewStore; renderer: LabelRenderer }, command: RenderLabel['payload']): Promise<RenderLabelReply> {
  const view = await deps.views.getForClient(command.clientId, command.trackingNumber);
  if (!view) return { ok: false, error: 'ParcelNotFound' };
  const { renderer } = deps;
  try {
    switch (command.format) {
      case 'cn23':
        return { ok: true, content: (await renderer.cn23Pdf(view, command.direction ?? 'horizontal')).toString('base64') };
      case 'pdf':
        return { ok: true, content: (await renderer.shippingLabelPdf(view)).toString('base64') };
      case 'html':
        return { ok: true, content: renderer.shippingLabelHtml(view) };
      case 'zpl':
        return { ok: true, content: renderer.shippingLabelZpl(view) };
      default: {
        const unhandled: never = command.format;
        throw new Error(`unknown label format ${String(unhandled)}`);
      }
    }
  } catch (error) {
    return { ok: false, error: 'RenderFailed', message: `Label rendering failed: ${error instanceof Error ? error.message : String(error)}` };
  }
}

export function createLabelService(deps: { bus: Bus; views: ParcelViewStore; renderer: LabelRenderer }) {
  let unsubscribe: Unsubscribe | undefined;
  async function handle(message: Message): Promise<unknown> {
    if (message.type !== 'RenderLabel') throw new Error(`label service: unknown command ${message.type}`);
    return renderLabel(deps, (message as Message<RenderLabel['payload']>).payload);
  }
  return {
    async start() {
      unsubscribe = await deps.bus.handleRequests(Topics.labelCommands, handle);
    },
    async stop() {
      await unsubscribe?.();
    },
  };
}
