import type { Kafka } from 'kafkajs';
import { BusRemoteError, BusTimeoutError } from '@parcel-logistics/bus';
import { busHeader, decodeValue, headerText } from './codec.ts';
import type { ConsumedRecord } from './codec.ts';
import { startGroupConsumer } from './consumer.ts';
import type { ConsumerTuning, GroupConsumer } from './consumer.ts';
import type { BusLogger } from './log.ts';
import type { Topics } from './topics.ts';

export interface Replies {
  /** Waits for the reply with this correlation id, up to `timeoutMs`. `fail` settles it early. */
  expect<T>(correlationId: string, topic: string, timeoutMs: number): { reply: Promise<T>; fail: (error: Error) => void };
  /** Starts the reply consumer on first use: a bus that never sends requests never reads replies. */
  ready(): Promise<void>;
  close(error: Error): Promise<void>;
}

export interface RepliesConfig {
  kafka: Kafka;
  topics: Topics;
  replyTopic: string;
  instanceId: string;
  tuning: ConsumerTuning;
  log: BusLogger;
}

/**
 * The requests of one bus instance waiting for their replies, whichever client reads the reply
 * topic: a reply record settles the request it answers (the requester and correlation headers).
 */
export function waitingReplies(instanceId: string): Pick<Replies, 'expect'> & { settle(record: ConsumedRecord): void; rejectAll(error: Error): void } {
  const pending = new Map<string, { resolve: (reply: unknown) => void; reject: (error: Error) => void }>();
  return {
    settle(record) {
      const headers = record.headers ?? {};
      if (headerText(headers[busHeader.requester]) !== instanceId) return;
      const waiting = pending.get(headerText(headers[busHeader.correlationId]) ?? '');
      if (!waiting) return; // timed out already
      try {
        const value = decodeValue(record.value);
        if (headerText(headers[busHeader.error]) !== undefined) waiting.reject(new BusRemoteError(String((value as { message?: unknown })?.message)));
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

/**
 * Every instance reads the whole reply topic in a group of its own and keeps the replies to its
 * own requests (the requester header). Offsets are never committed: the positions live in memory,
 * start at the topic's end when the consumer starts and are restored after each rejoin, so a
 * reconnect neither skips a reply nor leaves a group with offsets behind.
 */
export function createReplies({ kafka, topics, replyTopic, instanceId, tuning, log }: RepliesConfig): Replies {
  const waiting = waitingReplies(instanceId);
  let consumer: Promise<GroupConsumer> | undefined;
  let closedWith: Error | undefined;

  async function start(): Promise<GroupConsumer> {
    await topics.partitions(replyTopic);
    const positions = await topics.endOffsets(replyTopic);
    return startGroupConsumer(kafka, {
      topic: replyTopic,
      groupId: `${replyTopic}.${instanceId}`,
      commit: false,
      partitionsConcurrently: 1,
      seekOnJoin: (partitions) => partitions.flatMap((partition) => {
        const offset = positions.get(partition);
        return offset === undefined ? [] : [{ partition, offset }];
      }),
      eachBatch: async ({ batch, resolveOffset }) => {
        for (const record of batch.messages) {
          waiting.settle(record);
          positions.set(batch.partition, (BigInt(record.offset) + 1n).toString());
          resolveOffset(record.offset);
        }
      },
    }, tuning, log);
  }

  return {
    expect: waiting.expect,
    async ready() {
      if (closedWith) throw closedWith;
      if (!consumer) {
        consumer = start();
        consumer.catch(() => (consumer = undefined)); // the next request tries again
      }
      await consumer;
    },
    async close(error) {
      closedWith = error;
      waiting.rejectAll(error);
      const started = await consumer?.catch(() => undefined);
      await started?.stop('abandon');
    },
  };
}
