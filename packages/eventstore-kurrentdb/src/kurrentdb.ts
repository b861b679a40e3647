/**
 * Event store on KurrentDB (the compose stack), through `@kurrent/kurrentdb-client`.
 *
 * Differences from the SQL adapters, by KurrentDB's design:
 * - appendMany is KurrentDB's atomic multi-stream append (server 25.1 or later); requests naming
 *   one stream twice are merged (see `planMultiAppend`), and stream names are escaped
 *   (`encodeStream`) because that API accepts [A-Za-z0-9_.-] only. Event ids must be UUIDs.
 * - Event ids are idempotent per stream, by KurrentDB itself: an exact retry on the same stream
 *   with the same expectation answers the original result, a partial overlap is refused. Reusing
 *   a stored id on another stream is not detected (KurrentDB has no global id index).
 * - Global positions are log positions (see `toGlobalPosition`): increasing, with gaps.
 */
import {
  AccessDeniedError,
  BACKWARDS,
  CancelledError,
  DeadlineExceededError,
  END,
  jsonEvent,
  KurrentDBClient,
  NotLeaderError,
  START,
  StreamNotFoundError,
  streamNameFilter,
  UnavailableError,
  type AllStreamSubscription,
  type ReadPosition,
} from '@kurrent/kurrentdb-client';
import { refuseRepeatedIds } from '@parcel-logistics/eventstore/adapter';
import {
  createLogReader,
  startCatchUpSubscription,
  subscriptionRegistry,
  type HandlerErrorListener,
} from '@parcel-logistics/eventstore/adapter';
import {
  checkpointStreamPrefix,
  encodeStream,
  fromGlobalPosition,
  logStreamRegex,
  planMultiAppend,
  toEventData,
  toGlobalPosition,
  toPortError,
  toRecorded,
  toStreamState,
} from './kurrentdbMapping.ts';
import type { AppendRequest, AppendResult, EventStore, RecordedEvent } from '@parcel-logistics/eventstore';

export interface KurrentDbEventStoreOptions {
  /** `kurrentdb://host:2113?tls=false` and the like. */
  connectionString: string;
  /** Subscriptions' polling interval, the fallback behind the live wake-up (default 1000 ms). */
  pollIntervalMs?: number;
  /** Told about every failed handler attempt; defaults to a console warning. */
  onHandlerError?: HandlerErrorListener;
}

const transportErrors = [UnavailableError, DeadlineExceededError, CancelledError, AccessDeniedError, NotLeaderError];
const isTransportError = (error: unknown) => transportErrors.some((type) => error instanceof type);

export function createKurrentDbEventStore(options: KurrentDbEventStoreOptions): EventStore {
  const client = KurrentDBClient.connectionString(options.connectionString);
  const filter = () => streamNameFilter({ regex: logStreamRegex });
  const checkpointStream = (id: string) => `${checkpointStreamPrefix}${encodeStream(id)}`;
  const subscriptions = subscriptionRegistry();
  const wakeAll = (): void => {
    log.invalidate();
    subscriptions.wakeAll();
  };
  let live: AllStreamSubscription | undefined;
  let liveRetry: NodeJS.Timeout | undefined;
  let closing: Promise<void> | undefined;

  const open = (): void => {
    if (closing) throw new Error('event store is closed');
  };

  async function readStreamRaw(stream: string, fromRevision: number, maxCount?: number): Promise<RecordedEvent[]> {
    const events: RecordedEvent[] = [];
    try {
      for await (const resolved of client.readStream(stream, {
        fromRevision: BigInt(fromRevision),
        ...(maxCount ? { maxCount } : {}),
      })) {
        if (resolved.event) events.push(toRecorded(resolved.event));
      }
    } catch (error) {
      if (error instanceof StreamNotFoundError) return [];
      throw error;
    }
    return events;
  }

  async function* readBackwards(stream: string) {
    try {
      for await (const resolved of client.readStream(stream, {
        direction: BACKWARDS,
        fromRevision: END,
        maxCount: 1,
      })) {
        if (resolved.event) yield resolved.event;
      }
    } catch (error) {
      if (!(error instanceof StreamNotFoundError)) throw error;
    }
  }

  async function readHead(streamName: string): Promise<number> {
    for await (const event of readBackwards(encodeStream(streamName))) return Number(event.revision);
    return -1;
  }

  async function readPage(
    from: ReadPosition,
    after: number,
    limit: number,
    maxCount?: number,
  ): Promise<RecordedEvent[]> {
    const events: RecordedEvent[] = [];
    if (limit <= 0) return events;
    for await (const resolved of client.readAll({
      fromPosition: from,
      filter: filter(),
      ...(maxCount ? { maxCount } : {}),
    })) {
      if (!resolved.event) continue;
      const event = toRecorded(resolved.event);
      if (event.globalPosition <= after) continue;
      events.push(event);
      if (events.length === limit) break;
    }
    return events;
  }

  async function readAll(after: number, limit: number): Promise<RecordedEvent[]> {
    if (after <= 0) return readPage(START, 0, limit, limit);
    try {
      // The read includes the event at `after` itself, hence one more.
      return await readPage(fromGlobalPosition(after), after, limit, limit + 1);
    } catch (error) {
      if (isTransportError(error)) throw error;
      // The server reads from record boundaries only; a position that is not an event's own
      // (say, an event's position minus one) is found by reading from the start.
      return readPage(START, after, limit);
    }
  }

  /**
   * Every page of the log is read and parsed once for all of this store object's subscriptions
   * (the eventstore package's logReader.ts); a read that found the head is trusted for 50 ms at
   * most should the live subscription's wake-up be late.
   */
  const log = createLogReader({ readPage: readAll, headValidMs: 50 });

  async function headPosition(): Promise<number> {
    for await (const resolved of client.readAll({
      direction: BACKWARDS,
      fromPosition: END,
      maxCount: 1,
      filter: filter(),
    })) {
      if (resolved.event) return toGlobalPosition(resolved.event.position);
    }
    return 0;
  }

  /** Global positions of a stream's events, by revision: KurrentDB answers a retried append without positions. */
  async function positionsOf(streamName: string, revisions: number[]): Promise<Map<number, number>> {
    const wanted = revisions.filter((r) => r >= 0);
    if (wanted.length === 0) return new Map();
    const from = Math.min(...wanted);
    const stored = await readStreamRaw(encodeStream(streamName), from, Math.max(...wanted) - from + 1);
    return new Map(stored.map((e) => [e.revision, e.globalPosition]));
  }

  async function appendOne(request: AppendRequest): Promise<AppendResult> {
    refuseRepeatedIds(request);
    const stream = encodeStream(request.streamName);
    const written = await client
      .appendToStream(stream, request.events.map(toEventData), { streamState: toStreamState(request.expectedRevision) })
      .catch((error: unknown) => {
        throw toPortError(error, [request]);
      });
    const last = Number(written.nextExpectedRevision);
    const positions = await positionsOf(request.streamName, [last]);
    return { streamName: request.streamName, nextExpectedRevision: last, lastGlobalPosition: positions.get(last) ?? 0 };
  }

  async function appendMany(requests: AppendRequest[]): Promise<AppendResult[]> {
    requests.forEach(refuseRepeatedIds);
    const { appends, parts } = await planMultiAppend(requests, readHead);
    if (appends.some((a) => a.events.length === 0)) {
      throw new Error(
        'KurrentDB appendMany: every stream needs at least one event (its multi-stream append writes records)',
      );
    }
    const written = await client
      .multiStreamAppend(
        appends.map((a) => ({
          streamName: encodeStream(a.streamName),
          expectedState: toStreamState(a.expectedRevision),
          events: a.events.map(toEventData),
        })),
      )
      .catch((error: unknown) => {
        throw toPortError(error, requests);
      });
    // A request's last revision: the stream's final one, less the events merged in after it.
    const finalRevisions = appends.map((a) => {
      const response = written.responses.find((r) => r.streamName === encodeStream(a.streamName));
      if (!response) throw new Error(`KurrentDB multi-stream append answered without stream ${a.streamName}`);
      return Number(response.revision);
    });
    const lastRevisions = parts.map((p) => finalRevisions[p.append]! - appends[p.append]!.events.length + p.end);
    const positions = await Promise.all(
      appends.map((a, i) =>
        positionsOf(
          a.streamName,
          lastRevisions.filter((_, r) => parts[r]!.append === i),
        ),
      ),
    );
    return parts.map((p, r) => ({
      streamName: appends[p.append]!.streamName,
      nextExpectedRevision: lastRevisions[r]!,
      lastGlobalPosition: positions[p.append]!.get(lastRevisions[r]!) ?? 0,
    }));
  }

  /** One live subscription per store wakes the catch-up subscriptions on any commit, from any process. */
  function startLive(): void {
    if (live || closing) return;
    const subscription = client.subscribeToAll({ fromPosition: END, filter: filter() });
    const lost = () => {
      if (live !== subscription) return;
      live = undefined;
      if (!closing) liveRetry = setTimeout(startLive, 1000);
    };
    subscription.on('data', wakeAll);
    subscription.on('error', lost);
    subscription.on('close', lost);
    live = subscription;
  }

  async function storedCheckpoint(id: string): Promise<number | undefined> {
    for await (const event of readBackwards(checkpointStream(id))) return (event.data as { position: number }).position;
    return undefined;
  }

  return {
    async append(request) {
      open();
      const result = await appendOne(request);
      wakeAll();
      return result;
    },
    async appendMany(requests) {
      open();
      if (requests.length === 0) return [];
      const results = requests.length === 1 ? [await appendOne(requests[0]!)] : await appendMany(requests);
      wakeAll();
      return results;
    },
    async readStream(streamName, readOptions) {
      open();
      return readStreamRaw(encodeStream(streamName), readOptions?.fromRevision ?? 0);
    },
    async readAll({ afterPosition = 0, limit }) {
      open();
      return readAll(afterPosition, limit);
    },
    subscribeToAll(subscribeOptions) {
      open();
      startLive();
      const subscription = startCatchUpSubscription(
        {
          readAll: (after, limit) => log.read(after, limit),
          headPosition,
          loadCheckpoint: async (id) => (await storedCheckpoint(id)) ?? 0,
          saveCheckpoint: async (id, position) => {
            const stream = checkpointStream(id);
            const written = await client.appendToStream(
              stream,
              jsonEvent({ type: 'SubscriptionCheckpoint', data: { position } }),
            );
            // Only the latest checkpoint is ever read.
            if (written.nextExpectedRevision === 0n) await client.setStreamMetadata(stream, { maxCount: 10 });
          },
        },
        { onHandlerError: options.onHandlerError, pollIntervalMs: options.pollIntervalMs ?? 1000, ...subscribeOptions },
      );
      return subscriptions.track(subscription);
    },
    async progress(subscriptionIds) {
      open();
      const [head, stored] = await Promise.all([headPosition(), Promise.all(subscriptionIds.map(storedCheckpoint))]);
      const checkpoints = new Map<string, number>();
      subscriptionIds.forEach((id, i) => {
        if (stored[i] !== undefined) checkpoints.set(id, stored[i]);
      });
      return { head, checkpoints };
    },
    async ping() {
      open();
      await headPosition();
    },
    close() {
      closing ??= (async () => {
        await subscriptions.stopAll();
        clearTimeout(liveRetry);
        await live?.unsubscribe().catch(() => undefined);
        await client.dispose();
      })();
      return closing;
    },
  };
}
