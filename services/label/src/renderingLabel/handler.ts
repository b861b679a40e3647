/**
 * The label service: renders on demand (RenderLabel on the bus) from the parcel the command carries
 * (create-label) or else from the parcel view. Another account's parcel reads as missing. A
 * rendering failure is answered as a value, its message passed on.
 */
import { Topics } from '@parcel-logistics/contracts';
import type {
  LabelCommands,
  RenderLabel,
  RenderLabelReply,
  RenderManifest,
  RenderManifestReply,
} from '@parcel-logistics/contracts';
import { serveCommands } from '@parcel-logistics/bus';
import type { Bus, Unsubscribe } from '@parcel-logistics/bus';
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
  // No one left to address it to (docs/personal-data.md).
  if (view.personalDataErased) return { ok: false, error: 'PersonalDataErased' };
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

/** An end-of-day manifest's PDF: the manifest is in the command (the gateway read it for its own account). */
export async function renderManifest(
  deps: { renderer: LabelRendering },
  command: RenderManifest['payload'],
): Promise<RenderManifestReply> {
  try {
    return { ok: true, content: await deps.renderer.render({ format: 'manifest', manifest: command.manifest }) };
  } catch (error) {
    return {
      ok: false,
      error: 'RenderFailed',
      message: `Manifest rendering failed: ${error instanceof Error ? error.message : String(error)}`,
    };
  }
}

export function createLabelService(deps: { bus: Bus; views: ParcelViewStore; renderer: LabelRendering }) {
  let unsubscribe: Unsubscribe | undefined;
  return {
    async start() {
      unsubscribe = await serveCommands<LabelCommands>(deps.bus, Topics.labelCommands, 'label service', {
        RenderLabel: (payload) => renderLabel(deps, payload),
        RenderManifest: (payload) => renderManifest(deps, payload),
      });
    },
    async stop() {
      await unsubscribe?.();
    },
  };
}
