/**
 * A2 create-label: the parcel's stream is read once and decided on; the label service renders the
 * CN23 from the parcel as read; LB_GN is appended only once the label exists. A refusal or a failed
 * render appends nothing.
 */
import { isLabelRefusal, Topics } from '@parcel-logistics/contracts';
import type {
  CreateLabel,
  CreateLabelReply,
  LabelRefusal,
  RenderLabel,
  RenderLabelReply,
} from '@parcel-logistics/contracts';
import type { LabelCommands } from '@parcel-logistics/contracts';
import { handleParcelCommand, parcelViewOf } from '@parcel-logistics/application';
import type { Ids, ParcelProjector } from '@parcel-logistics/application';
import { commandSender } from '@parcel-logistics/bus';
import type { Bus } from '@parcel-logistics/bus';
import { ParcelError, selfLabelServiceTypes } from '@parcel-logistics/domain';
import type { Clock } from '@parcel-logistics/domain';
import type { EventStore } from '@parcel-logistics/eventstore';
import type { ReferenceData } from '@parcel-logistics/reference-data';

export interface CreateLabelDeps {
  eventStore: EventStore;
  projector: ParcelProjector;
  bus: Bus;
  ref: ReferenceData;
  clock: Clock;
  ids: Ids;
  onProjectionError?: (error: unknown) => void;
  /** How long the label service may take to render (the gateway's command timeout by default). */
  renderTimeoutMs?: number;
}

/** The refusal the parcel decider's error is, for create-label and get-shipping-labels alike; undefined for any other error. */
export const labelRefusalOf = (error: unknown): LabelRefusal | undefined =>
  error instanceof ParcelError && isLabelRefusal(error.code) ? error.code : undefined;

export async function createLabel(
  deps: CreateLabelDeps,
  command: CreateLabel['payload'],
  commandId: string,
): Promise<CreateLabelReply> {
  const { trackingNumber, ...request } = command;
  const { clientId, direction } = command;
  const data = { ...request, selfLabelServiceTypes: selfLabelServiceTypes(deps.ref), now: deps.clock.now() };
  let content = '';
  /** The render's refusal: nothing is appended (the throw below stops the command), and it is answered as it is. */
  let notRendered: Extract<RenderLabelReply, { ok: false }> | undefined;
  const render = async ({ history }: { history: Parameters<typeof parcelViewOf>[0] }) => {
    const parcel = parcelViewOf(history)!;
    const payload: RenderLabel['payload'] = { clientId, trackingNumber, format: 'cn23', direction, parcel };
    const renders = commandSender<LabelCommands>(deps.bus, Topics.labelCommands, deps.renderTimeoutMs ?? 10_000);
    const reply = await renders('RenderLabel', trackingNumber, payload);
    if (!reply.ok) {
      notRendered = reply;
      throw new Error('label not rendered');
    }
    content = reply.content;
  };
  try {
    await handleParcelCommand(
      deps,
      trackingNumber,
      () => ({ type: 'GenerateLabel', data }),
      { commandId, clientId },
      { beforeAppend: render },
    );
    return { ok: true, content };
  } catch (error) {
    if (notRendered)
      return notRendered.error === 'ParcelNotFound' ? { ok: false, error: 'ParcelNotFound' } : notRendered;
    const refusal = labelRefusalOf(error);
    if (refusal) return { ok: false, error: refusal };
    throw error;
  }
}
