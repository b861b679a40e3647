/**
 * The label service: renders on demand (RenderLabel on the bus) from the parcel the command carries
 * (create-label) or else from the parcel view. Another account's parcel reads as missing. A
 * rendering failure is answered as a value, its message passed on.
 */
import { Topics } from '@parcel-logistics/contracts';
import type { RenderLabel, RenderLabelReply } from '@parcel-logistics/contracts';
import type { Bus, Message, Unsubscribe } from '@parcel-logistics/bus';
import type { ParcelViewStore } from '@parcel-logistics/projections';
import type { LabelJob, LabelRenderer } from '../types.ts';

/** What the service needs of a renderer. */
export type LabelRendering = Pick<LabelRenderer, 'render'>;

export async function renderLabel(
  deps: { views: ParcelViewStore; renderer: LabelRendering },
  command: RenderLabel['payload'],
): Promise<RenderLabelReply> {
  // Create-label's tracking service sends the parcel it has just read and decided on: no second read.
  const view = command.parcel ?? (await deps.views.getForClient(command.clientId, command.trackingNumber));
  if (!view || view.clientId !== command.clientId) return { ok: false, error: 'ParcelNotFound' };
  try {
    const job: LabelJob =
      command.format === 'cn23'
        ? { format: 'cn23', view, direction: command.direction ?? 'horizontal' }
        : { format: command.format, view };
    return { ok: true, content: await deps.renderer.render(job) };
  } catch (error) {
    return {
      ok: false,
      error: 'RenderFailed',
      message: `Label rendering failed: ${error instanceof Error ? error.message : String(error)}`,
    };
  }
}

export function createLabelService(deps: { bus: Bus; views: ParcelViewStore; renderer: LabelRendering }) {
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
