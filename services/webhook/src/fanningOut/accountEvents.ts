/**
 * An account's client-visible events that are not a parcel's: an import finished, a manifest
 * created. Each is read off
 * its own stream, with its account, into the webhook body of docs/webhooks.md ("Account events"):
 * counts and ids only, nothing personal.
 */
import { readStreamState } from '@parcel-logistics/application';
import {
  deserializeEvent,
  IMPORT_STREAM_PREFIX,
  importResultOf,
  importStreamName,
  MANIFEST_STREAM_PREFIX,
} from '@parcel-logistics/contracts';
import type { AccountEventMessage, WebhookEventType } from '@parcel-logistics/contracts';
import { formatSgt, manifestDecider, orderImportDecider } from '@parcel-logistics/domain';
import type { EventStore, RecordedEvent } from '@parcel-logistics/eventstore';

export interface AccountEvent {
  type: WebhookEventType;
  clientId: string;
  message: AccountEventMessage;
}

/** The account event a recorded event of another stream than a parcel's is, if it is one. */
export function accountEvents(eventStore: EventStore) {
  return async (recorded: RecordedEvent): Promise<AccountEvent | undefined> => {
    if (recorded.streamName.startsWith(MANIFEST_STREAM_PREFIX)) return manifestCreated(eventStore, recorded);
    if (!recorded.streamName.startsWith(IMPORT_STREAM_PREFIX)) return undefined;
    const event = deserializeEvent(recorded);
    if (event.type !== 'OrderImportFinished') return undefined;
    const { state } = await readStreamState(eventStore, importStreamName(event.data.importId), orderImportDecider);
    if (state.status === 'none') return undefined;
    const { errors: _listed, state: _state, accepted_at: _at, finished_at: _done, ...counts } = importResultOf(state);
    return {
      type: 'OrderImportFinished',
      clientId: state.clientId,
      message: {
        type: 'OrderImportFinished',
        schema: recorded.type,
        eventId: recorded.id,
        clientId: state.clientId,
        time: formatSgt(event.data.finishedAt),
        data: counts,
      },
    };
  };
}

/**
 * `ManifestCreated` once a manifest is completed with at least one parcel: the manifest as its
 * stream holds it (completed, it never changes again).
 */
async function manifestCreated(eventStore: EventStore, recorded: RecordedEvent): Promise<AccountEvent | undefined> {
  if (deserializeEvent(recorded).type !== 'ManifestCompleted') return undefined;
  const { state } = await readStreamState(eventStore, recorded.streamName, manifestDecider);
  if (state.status !== 'completed' || state.trackingNumbers.length === 0) return undefined;
  return {
    type: 'ManifestCreated',
    clientId: state.clientId,
    message: {
      type: 'ManifestCreated',
      schema: recorded.type,
      eventId: recorded.id,
      clientId: state.clientId,
      time: formatSgt(state.recordedAt),
      data: {
        manifest_id: state.manifestId,
        carrier: state.carrier,
        count: state.trackingNumbers.length,
        tracking_numbers: state.trackingNumbers,
      },
    },
  };
}
