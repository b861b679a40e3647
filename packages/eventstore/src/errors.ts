/**
 * An event id is already stored and the request is not an exact retry of the batch that stored
 * it (see the adapters' idempotency rule). Nothing of the request is written.
 */
export class DuplicateEventIdError extends Error {
  readonly streamName: string;
  readonly eventId: string;
  constructor(streamName: string, eventId: string) {
    super(`stream ${streamName}: event id ${eventId} is already stored and the request is not an exact retry`);
    this.name = 'DuplicateEventIdError';
    this.streamName = streamName;
    this.eventId = eventId;
  }
}
