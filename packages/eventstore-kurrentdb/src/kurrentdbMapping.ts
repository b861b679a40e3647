/** Translation between the event store port and KurrentDB: names, positions, events, errors, multi-stream plans. */
import {
  ANY,
  jsonEvent,
  NO_STREAM,
  STREAM_EXISTS,
  WrongExpectedVersionError,
  type AppendStreamState,
  type EventData,
  type JSONType,
  type Position,
  type RecordedEvent as KurrentRecordedEvent,
} from '@kurrent/kurrentdb-client';
import { satisfies } from '@parcel-logistics/eventstore/adapter';
import { WrongExpectedRevisionError } from '@parcel-logistics/eventstore';
import type { AppendRequest, EventToAppend, ExpectedRevision, RecordedEvent } from '@parcel-logistics/eventstore';

/**
 * KurrentDB's multi-stream append accepts stream names of [A-Za-z0-9_.-] only, and `$` starts its
 * system streams. Every other character (and `_` itself) is written as `_` + two hex digits per
 * UTF-8 byte, so the mapping is reversible and the same on every append path:
 * `reference-demo/ORDER 1` is stored as `reference-demo_2fORDER_201`.
 */
export function encodeStream(name: string): string {
  let encoded = '';
  for (const char of name) {
    if (/^[A-Za-z0-9.-]$/.test(char)) encoded += char;
    else for (const byte of Buffer.from(char, 'utf8')) encoded += `_${byte.toString(16).padStart(2, '0')}`;
  }
  return encoded;
}

/** The inverse of `encodeStream`; a name written by someone else keeps what does not decode. */
export function decodeStream(encoded: string): string {
  const bytes: number[] = [];
  for (let i = 0; i < encoded.length; i++) {
    const escape = encoded[i] === '_' ? /^[0-9a-f]{2}$/.exec(encoded.slice(i + 1, i + 3)) : null;
    if (escape) {
      bytes.push(parseInt(escape[0], 16));
      i += 2;
    } else {
      bytes.push(...Buffer.from(encoded[i]!, 'utf8'));
    }
  }
  return Buffer.from(bytes).toString('utf8');
}

/**
 * Checkpoint streams: `_s` never starts an encoded name (an escape is `_` + hex), so these cannot
 * collide with the application's streams, and the log filter below can leave them out.
 */
export const checkpointStreamPrefix = '_subscription-checkpoint-';
/** What readAll, subscriptions and their head see: neither system streams nor checkpoints. */
export const logStreamRegex = `^(?!\\$|${checkpointStreamPrefix})`;

/**
 * Global positions: an event's commit position in the transaction log (a byte offset, equal to its
 * prepare position for everything written since implicit transactions), plus one so the first
 * event is never 0. They grow in log order and have gaps; `fromGlobalPosition` reverses it.
 */
export function toGlobalPosition(position: Position | undefined): number {
  if (!position)
    throw new Error('KurrentDB returned an event without its log position (stream reads carry it from server 22.6 on)');
  const global = Number(position.commit) + 1;
  if (!Number.isSafeInteger(global)) throw new Error(`KurrentDB log position ${position.commit} is beyond 2^53`);
  return global;
}

export const fromGlobalPosition = (global: number): Position => ({
  commit: BigInt(global - 1),
  prepare: BigInt(global - 1),
});

/**
 * Metadata travels as one string property: the multi-stream append takes string values only,
 * and one shape for both append paths keeps reading simple.
 */
const metadataKey = 'parcel.metadata';

export const toEventData = (event: EventToAppend): EventData =>
  jsonEvent({
    id: event.id,
    type: event.type,
    data: (event.data ?? null) as JSONType,
    metadata: { [metadataKey]: JSON.stringify(event.metadata ?? {}) },
  });

export function toRecorded(event: KurrentRecordedEvent): RecordedEvent {
  const metadata = event.metadata as Record<string, unknown> | undefined;
  const wrapped = metadata?.[metadataKey];
  return {
    id: event.id,
    streamName: decodeStream(event.streamId),
    type: event.type,
    revision: Number(event.revision),
    globalPosition: toGlobalPosition(event.position),
    // Ours are always JSON; another writer's binary event is handed over as bytes rather than failing the read.
    data: event.data,
    metadata: typeof wrapped === 'string' ? (JSON.parse(wrapped) as Record<string, unknown>) : {},
    recordedAt: event.created.toISOString(),
  };
}

export function toStreamState(expected: ExpectedRevision): AppendStreamState {
  if (expected === 'any') return ANY;
  if (expected === 'no_stream') return NO_STREAM;
  if (expected === 'stream_exists') return STREAM_EXISTS;
  return BigInt(expected);
}

/** WrongExpectedVersionError → WrongExpectedRevisionError of the (first) request on that stream; anything else as is. */
export function toPortError(error: unknown, requests: AppendRequest[]): unknown {
  if (!(error instanceof WrongExpectedVersionError)) return error;
  const streamName = decodeStream(error.streamName);
  const request = requests.find((r) => r.streamName === streamName) ?? requests[0]!;
  const actual = error.actualState === NO_STREAM ? -1 : Number(error.actualState);
  return new WrongExpectedRevisionError(request.streamName, request.expectedRevision, actual);
}

export interface MultiAppend {
  streamName: string;
  expectedRevision: ExpectedRevision;
  events: EventToAppend[];
}

export interface MultiAppendPlan {
  appends: MultiAppend[];
  /** Per request: its append, and how many of that append's events are its own or earlier. */
  parts: { append: number; end: number }[];
}

/**
 * KurrentDB refuses a stream twice in one multi-stream append, so the requests of one stream are
 * merged into its first. A later request's expectation is about the stream as the earlier ones
 * leave it: it is checked here, which needs the stream's state when the first expectation leaves
 * it open (`any`, `stream_exists`); `readHead` supplies it, and the merged append then expects
 * exactly that revision. Events of one stream thereby precede, in the log, those of streams
 * named between its requests.
 */
export async function planMultiAppend(
  requests: AppendRequest[],
  readHead: (streamName: string) => Promise<number>,
): Promise<MultiAppendPlan> {
  const appends: MultiAppend[] = [];
  const parts: MultiAppendPlan['parts'] = [];
  const byStream = new Map<string, number>();
  for (const request of requests) {
    const index = byStream.get(request.streamName);
    if (index === undefined) {
      byStream.set(request.streamName, appends.length);
      appends.push({
        streamName: request.streamName,
        expectedRevision: request.expectedRevision,
        events: [...request.events],
      });
      parts.push({ append: appends.length - 1, end: request.events.length });
      continue;
    }
    const merged = appends[index]!;
    if (request.expectedRevision !== 'any') {
      if (merged.expectedRevision === 'any' || merged.expectedRevision === 'stream_exists') {
        const head = await readHead(request.streamName);
        if (!satisfies(merged.expectedRevision, head)) {
          throw new WrongExpectedRevisionError(request.streamName, merged.expectedRevision, head);
        }
        merged.expectedRevision = head === -1 ? 'no_stream' : head;
      }
      const before = merged.expectedRevision === 'no_stream' ? -1 : (merged.expectedRevision as number);
      const actual = before + merged.events.length;
      if (!satisfies(request.expectedRevision, actual)) {
        throw new WrongExpectedRevisionError(request.streamName, request.expectedRevision, actual);
      }
    }
    merged.events.push(...request.events);
    parts.push({ append: index, end: merged.events.length });
  }
  return { appends, parts };
}
