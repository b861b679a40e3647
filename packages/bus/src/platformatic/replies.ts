import { once } from 'node:events';
import { Consumer, MessagesStreamModes } from '@platformatic/kafka';
import type { BaseOptions, Consumer as ConsumerClient, MessagesStream } from '@platformatic/kafka';
import { BusRemoteError, BusTimeoutError } from '../port.ts';
import { busHeader, decodeValue, headerText } from '../kafka/codec.ts';
import type { BusLogger } from '../kafka/log.ts';
import type { Replies } from '../kafka/replies.ts';
import { fromConsumed } from './records.ts';
import type { StreamTuning } from './consumer.ts';
import type { PlatformaticTopics } from './topics.ts';

interface Pending {
  resolve: (reply: unknown) => void;
  reject: (error: Error) => void;
}

export interface PlatformaticRepliesConfig {
  base: BaseOptions;
  topics: PlatformaticTopics;
  replyTopic: string;
  instanceId: string;
  tuning: StreamTuning;
  log: BusLogger;
}

/**
 * As the kafkajs adapter's replies (kafka/replies.ts): every instance reads the whole reply topic
 * in a group of its own, from the topic's end when it starts, never commits, and keeps the replies
 * to its own requests. The stream is in manual mode: its positions live in memory and survive a
 * rejoin; should the stream fail (a broker gone), a new one starts where the last one was.
 */
export function createPlatformaticReplies({ base, topics, replyTopic, instanceId, tuning, log }: PlatformaticRepliesConfig): Replies {
  const pending = new Map<string, Pending>();
  const positions = new Map<number, bigint>();
  let consumer: ConsumerClient<Buffer, Buffer, Buffer, Buffer> | undefined;
  let started: Promise<void> | undefined;
  let closedWith: Error | undefined;
  let restarting: NodeJS.Timeout | undefined;

  function settle(record: ReturnType<typeof fromConsumed>): void {
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
  }

  async function open(own: ConsumerClient<Buffer, Buffer, Buffer, Buffer>): Promise<MessagesStream<Buffer, Buffer, Buffer, Buffer>> {
    const stream = await own.consume({
      topics: [replyTopic],
      mode: MessagesStreamModes.MANUAL,
      offsets: [...positions].map(([partition, offset]) => ({ topic: replyTopic, partition, offset })),
      autocommit: false,
      sessionTimeout: tuning.sessionTimeoutMs,
      rebalanceTimeout: tuning.rebalanceTimeoutMs,
      heartbeatInterval: tuning.heartbeatIntervalMs,
      maxWaitTime: tuning.maxWaitTimeMs,
      minBytes: 1,
    });
    stream.on('data', (message) => {
      positions.set(message.partition, message.offset + 1n);
      settle(fromConsumed(message));
    });
    stream.on('error', (error: Error) => {
      if (closedWith) return;
      log.warn({ topic: replyTopic, error: error.message }, 'reply stream failed: starting a new one');
      const again = () => {
        restarting = setTimeout(() => void open(own).catch(again), 1_000);
      };
      again();
    });
    return stream;
  }

  async function start(): Promise<void> {
    await topics.partitions(replyTopic);
    for (const [partition, offset] of await topics.endOffsets(replyTopic)) positions.set(partition, BigInt(offset));
    const own = new Consumer<Buffer, Buffer, Buffer, Buffer>({
      ...base,
      groupId: `${replyTopic}.${instanceId}`,
      autocommit: false,
      sessionTimeout: tuning.sessionTimeoutMs,
      rebalanceTimeout: tuning.rebalanceTimeoutMs,
      heartbeatInterval: tuning.heartbeatIntervalMs,
      maxWaitTime: tuning.maxWaitTimeMs,
    });
    own.on('error', (error: Error) => log.warn({ topic: replyTopic, error: error.message }, 'reply consumer error'));
    consumer = own;
    try {
      const stream = await open(own);
      await once(stream, 'fetch');
    } catch (error) {
      consumer = undefined;
      await own.close(true).catch(() => undefined);
      throw error;
    }
  }

  return {
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
    async ready() {
      if (closedWith) throw closedWith;
      if (!started) {
        started = start();
        started.catch(() => (started = undefined)); // the next request tries again
      }
      await started;
    },
    async close(error) {
      closedWith = error;
      clearTimeout(restarting);
      for (const waiting of [...pending.values()]) waiting.reject(error);
      await started?.catch(() => undefined);
      await consumer?.close(true).catch(() => undefined);
    },
  };
}
