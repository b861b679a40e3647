/** Rules every adapter applies the same way: expected revisions and the idempotent retry of event ids. */
import { DuplicateEventIdError } from './errors.ts';
import { WrongExpectedRevisionError } from './port.ts';
import type { AppendRequest, AppendResult, ExpectedRevision } from './port.ts';

/** An event already stored under one of the request's ids. */
export interface StoredRow {
  event_id: string;
  stream_name: string;
  revision: number;
  type: string;
  /** As serialized by `serializeData`. */
  data: string;
  global_position: number;
}

export const serializeData = (data: unknown): string => JSON.stringify(data ?? null);

export function satisfies(expected: ExpectedRevision, actual: number): boolean {
  if (expected === 'any') return true;
  if (expected === 'no_stream') return actual === -1;
  if (expected === 'stream_exists') return actual >= 0;
  return actual === expected;
}

export function checkExpected(request: Pick<AppendRequest, 'streamName' | 'expectedRevision'>, actual: number): void {
  if (!satisfies(request.expectedRevision, actual)) {
    throw new WrongExpectedRevisionError(request.streamName, request.expectedRevision, actual);
  }
}

/** A request naming one id twice is refused before anything is looked up. */
export function refuseRepeatedIds(request: { streamName: string; events: { id: string }[] }): string[] {
  const ids = request.events.map((e) => e.id);
  const repeated = ids.find((id, i) => ids.indexOf(id) !== i);
  if (repeated !== undefined) throw new DuplicateEventIdError(request.streamName, repeated);
  return ids;
}

/**
 * Idempotency rule: a request whose events are all stored already, on the same stream, in the
 * same order at consecutive revisions, with the same types and data, where the expected revision
 * would have admitted them, is an exact retry and succeeds with the original result. Metadata is
 * not compared (a retry may carry a new trace context). Any other reuse of a stored id is refused.
 */
export function retriedResult(request: AppendRequest, stored: StoredRow[]): AppendResult {
  const { streamName, expectedRevision, events } = request;
  const byId = new Map(stored.map((row) => [row.event_id, row]));
  const first = byId.get(events[0]!.id);
  const exact =
    first !== undefined &&
    stored.length === events.length &&
    satisfies(expectedRevision, first.revision - 1) &&
    events.every((event, i) => {
      const row = byId.get(event.id);
      return (
        row !== undefined &&
        row.stream_name === streamName &&
        row.revision === first.revision + i &&
        row.type === event.type &&
        row.data === serializeData(event.data)
      );
    });
  if (!exact) throw new DuplicateEventIdError(streamName, stored[0]!.event_id);
  const last = byId.get(events[events.length - 1]!.id)!;
  return { streamName, nextExpectedRevision: last.revision, lastGlobalPosition: last.global_position };
}
