import { BusRemoteError, BusTimeoutError } from '@parcel-logistics/bus';
import { busHeader, decodeValue, headerText } from './codec.ts';
import type { ConsumedRecord } from './codec.ts';
import type { Topics } from './topics.ts';

export interface Replies {
  /** Waits for the reply with this correlation id, up to `timeoutMs`. `fail` settles it early. */
  expect<T>(
    correlationId: string,
    topic: string,
    timeoutMs: number,
  ): { reply: Promise<T>; fail: (error: Error) => void };
  /** Starts the reply consumer on first use: a bus that never sends requests never reads replies. */
  ready(): Promise<void>;
  close(error: Error): Promise<void>;
}

/**
 * The requests of one bus instance waiting for their replies, whichever client reads the reply
 * topic: a reply record settles the request it answers (the requester and correlation headers).
 */
function waitingReplies(
  instanceId: string,
): Pick<Replies, 'expect'> & { settle(record: ConsumedRecord): void; rejectAll(error: Error): void } {
  const pending = new Map<string, { resolve: (reply: unknown) => void; reject: (error: Error) => void }>();
  return {
    settle(record) {
      const headers = record.headers ?? {};
      if (headerText(headers[busHeader.requester]) !== instanceId) return;
      const waiting = pending.get(headerText(headers[busHeader.correlationId]) ?? '');
      if (!waiting) return; // timed out already
      try {
        const value = decodeValue(record.value);
        if (headerText(headers[busHeader.error]) !== undefined)
          waiting.reject(new BusRemoteError(String((value as { message?: unknown })?.message)));
        else waiting.resolve(value);
      } catch (error) {
        waiting.reject(error as Error);
      }
    },
    expect<T>(correlationId: string, topic: string, timeoutMs: number) {
      const reply = Promise.withResolvers<T>();
      const finish = () => {
        clearTimeout(timer);
        pending.delete(correlationId);
      };
      const fail = (error: Error) => {
        finish();
        reply.reject(error);
      };
      const timer = setTimeout(() => fail(new BusTimeoutError(topic, timeoutMs)), timeoutMs);
      pending.set(correlationId, {
        resolve: (value) => {
          finish();
          reply.resolve(value as T);
        },
        reject: fail,
      });
      return { reply: reply.promise, fail };
    },
    rejectAll(error) {
      for (const waiting of [...pending.values()]) waiting.reject(error);
    },
  };
}

/** How a client reads the reply topic for one bus instance. */
export interface ReplyReading {
  topic: string;
  /** The instance's own group, which never commits. */
  groupId: string;
  /** Where each partition starts: the topic's end when the reader starts. */
  startAt: Map<number, string>;
  /** Settles the request a reply record answers, when it is one of this instance's. */
  settle: (record: ConsumedRecord) => void;
}

export interface ReplyReader {
  /** Leaves the group; never throws. */
  stop(): Promise<void>;
}

/** Starts reading replies; resolves once the reader fetched. */
export type ReadReplies = (reading: ReplyReading) => Promise<ReplyReader>;

/**
 * Every instance reads the whole reply topic in a group of its own and keeps the replies to its
 * own requests (the requester header). Offsets are never committed: the positions live in memory,
 * start at the topic's end when the reader starts and survive each rejoin, so a reconnect neither
 * skips a reply nor leaves a group with offsets behind. The reader starts with the first request.
 */
export function createReplies(
  { topics, replyTopic, instanceId }: { topics: Topics; replyTopic: string; instanceId: string },
  read: ReadReplies,
): Replies {
  const waiting = waitingReplies(instanceId);
  let reader: Promise<ReplyReader> | undefined;
  let closedWith: Error | undefined;

  async function start(): Promise<ReplyReader> {
    await topics.partitions(replyTopic);
    const startAt = await topics.endOffsets(replyTopic);
    return read({ topic: replyTopic, groupId: `${replyTopic}.${instanceId}`, startAt, settle: waiting.settle });
  }

  return {
    expect: waiting.expect,
    async ready() {
      if (closedWith) throw closedWith;
      if (!reader) {
        reader = start();
        reader.catch(() => (reader = undefined)); // the next request tries again
      }
      await reader;
    },
    async close(error) {
      closedWith = error;
      waiting.rejectAll(error);
      const started = await reader?.catch(() => undefined);
      await started?.stop();
    },
  };
}
