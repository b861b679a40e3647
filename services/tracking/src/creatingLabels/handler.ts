/**
 * Many labels in one document (get-shipping-labels): every parcel's stream is read and decided on
 * as create-label (A2) decides, the label service renders the accepted parcels into one document
 * from the parcels as read, and only then is each one's LB_GN appended, all in one `appendMany`. A
 * refused parcel is answered with its reason and appends nothing; a failed render appends nothing
 * at all. A concurrent write to any of the parcels decides them all again and renders again.
 */
import { parcelStreamName, Topics } from '@parcel-logistics/contracts';
import type {
  CreateLabels,
  CreateLabelsReply,
  LabelCommands,
  LabelRefusal,
  RenderLabelsReply,
} from '@parcel-logistics/contracts';
import { handleCommands, parcelViewOf } from '@parcel-logistics/application';
import type { Decided } from '@parcel-logistics/application';
import { commandSender } from '@parcel-logistics/bus';
import { parcelDecider, selfLabelServiceTypes } from '@parcel-logistics/domain';
import type { ParcelCommand, ParcelEvent, ParcelState } from '@parcel-logistics/domain';
import { labelRefusalOf } from '../creatingLabel/handler.ts';
import type { CreateLabelDeps } from '../creatingLabel/handler.ts';

/** LB_GN's label type: the document's format, as create-label records its LabelType (`CN23`). */
const LABEL_TYPE = { pdf: 'PDF', zpl: 'ZPL' } as const;

export async function createLabels(
  deps: CreateLabelDeps,
  command: CreateLabels['payload'],
  commandId: string,
): Promise<CreateLabelsReply> {
  const { clientId, format, layout } = command;
  const trackingNumbers = [...new Set(command.trackingNumbers)];
  const selfLabel = selfLabelServiceTypes(deps.ref);
  const now = deps.clock.now();
  // The parcel's own countries: no Origin and Destination are asked, so only tenant, self-label and erasure refuse.
  const generate = (state: ParcelState): ParcelCommand => ({
    type: 'GenerateLabel',
    data: {
      clientId,
      origin: state.status === 'empty' ? '' : state.origin,
      destination: state.status === 'empty' ? '' : state.destination,
      selfLabelServiceTypes: selfLabel,
      labelType: LABEL_TYPE[format],
      direction: 'horizontal',
      now,
    },
  });
  /** Why the decider refuses the parcel a label, or undefined when it records one. */
  const refusalOf = (state: ParcelState): LabelRefusal | undefined => {
    try {
      parcelDecider.decide(generate(state), state);
      return undefined;
    } catch (error) {
      const refusal = labelRefusalOf(error);
      if (refusal) return refusal;
      throw error;
    }
  };

  const renders = commandSender<LabelCommands>(deps.bus, Topics.labelCommands, deps.renderTimeoutMs ?? 10_000);
  let content: string | undefined;
  /** The render's refusal: nothing is appended (the throw below stops the commands), and it is answered as it is. */
  let notRendered: Extract<RenderLabelsReply, { ok: false }> | undefined;
  const render = async (all: readonly Decided<ParcelState, ParcelEvent>[]) => {
    const parcels = all.filter((d) => d.events.length > 0).map((d) => parcelViewOf(d.history)!);
    const reply = await renders('RenderLabels', clientId, { clientId, format, layout, parcels });
    if (!reply.ok) {
      notRendered = reply;
      throw new Error('labels not rendered');
    }
    content = reply.content;
  };

  let decided: Decided<ParcelState, ParcelEvent>[];
  try {
    decided = await handleCommands(
      deps.eventStore,
      trackingNumbers.map((trackingNumber) => ({
        streamName: parcelStreamName(trackingNumber),
        decider: parcelDecider,
        // A refused parcel gets no command: nothing is appended to its stream.
        command: (state: ParcelState) => (refusalOf(state) ? [] : [generate(state)]),
        metadata: { commandId, clientId },
      })),
      { eventId: deps.ids.eventId, beforeAppend: render },
    );
  } catch (error) {
    if (notRendered) return notRendered;
    throw error;
  }

  const labelled = decided.filter((d) => d.events.length > 0);
  const histories = labelled.map((d) => ({
    trackingNumber: trackingNumbers[decided.indexOf(d)]!,
    history: [...d.history, ...d.events],
    storedRevision: d.history.at(-1)?.revision ?? -1,
  }));
  // Read-your-writes: the committed LB_GN is in the views before the reply; a failed update is left to the subscription.
  if (histories.length > 0)
    await deps.projector.projectHistories(histories).catch((e: unknown) => deps.onProjectionError?.(e));

  return {
    ok: true,
    ...(content === undefined || labelled.length === 0 ? {} : { content }),
    labelled: histories.map((h) => h.trackingNumber),
    refused: decided.flatMap((d, i) =>
      d.events.length > 0
        ? []
        : [{ trackingNumber: trackingNumbers[i]!, error: refusalOf(d.state) ?? 'ParcelNotFound' }],
    ),
  };
}
