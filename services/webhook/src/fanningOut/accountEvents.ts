/**
 * An account's client-visible events that are not a parcel's: an import finished. Each is read off
 * its own stream, with its account, into the webhook body of docs/webhooks.md ("Account events"):
 * counts and ids only, nothing personal.
 */
import { readStreamState } from '@parcel-logistics/application';
import { deserializeEvent, IMPORT_STREAM_PREFIX, importResultOf, importStreamName } from '@parcel-logistics/contracts';
import type { AccountEventMessage, WebhookEventType } from '@parcel-logistics/contracts';
import { formatSgt, orderImportDecider } from '@parcel-logistics/domain';
import type { EventStore, RecordedEvent } from '@parcel-logistics/eventstore';

export interface AccountEvent {
  type: WebhookEventType;
  clientId: string;
  message: AccountEventMessage;
}

/** The account event a recorded event of another stream than a parcel's is, if it is one. */
export function accountEvents(eventStore: EventStore) {
  return async (recorded: RecordedEvent): Promise<AccountEvent | undefined> => {
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
