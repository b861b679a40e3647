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
  RenderLabels,
  RenderLabelsReply,
} from '@parcel-logistics/contracts';
import { serveCommands } from '@parcel-logistics/bus';
import type { Bus, Unsubscribe } from '@parcel-logistics/bus';
import type { ParcelViewStore } from '@parcel-logistics/projections';
import type { LabelJob, LabelRenderer, LabelsJob } from '../types.ts';

/** What the service needs of a renderer. */
export type LabelRendering = Pick<LabelRenderer, 'render' | 'renderMany'>;

export async function renderLabel(
  deps: { views: ParcelViewStore; renderer: Pick<LabelRendering, 'render'> },
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
    return renderFailed(error);
  }
}

/** A failed render as the reply carries it: the renderer's message, after what was being rendered. */
const renderFailed = (error: unknown, what: 'Label' | 'Manifest' = 'Label') => ({
  ok: false as const,
  error: 'RenderFailed' as const,
  message: `${what} rendering failed: ${error instanceof Error ? error.message : String(error)}`,
});

/**
 * Many labels in one document, from the parcels the tracking service read and decided on. It
 * checks again what it is handed: a parcel of another account, or one without personal data, is
 * never put on the document (the whole render fails instead).
 */
export async function renderLabels(
  deps: { renderer: Pick<LabelRendering, 'renderMany'> },
  command: RenderLabels['payload'],
): Promise<RenderLabelsReply> {
  const { clientId, format, layout, parcels } = command;
  try {
    if (parcels.some((p) => p.clientId !== clientId || p.personalDataErased))
      throw new Error('a parcel the account may not label');
    const job: LabelsJob = format === 'zpl' ? { format, views: parcels } : { format, sheet: layout, views: parcels };
    return { ok: true, content: await deps.renderer.renderMany(job) };
  } catch (error) {
    return renderFailed(error);
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
    return renderFailed(error, 'Manifest');
  }
}

export function createLabelService(deps: { bus: Bus; views: ParcelViewStore; renderer: LabelRendering }) {
  let unsubscribe: Unsubscribe | undefined;
  return {
    async start() {
      unsubscribe = await serveCommands<LabelCommands>(deps.bus, Topics.labelCommands, 'label service', {
        RenderLabel: (payload) => renderLabel(deps, payload),
        RenderManifest: (payload) => renderManifest(deps, payload),
        RenderLabels: (payload) => renderLabels(deps, payload),
      });
    },
    async stop() {
      await unsubscribe?.();
    },
  };
}
