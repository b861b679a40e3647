import { once } from 'node:events';
import { Consumer, MessagesStreamModes } from '@platformatic/kafka';
import type { BaseOptions, Consumer as ConsumerClient, MessagesStream } from '@platformatic/kafka';
import type { BusLogger } from '../shared/log.ts';
import { waitingReplies } from '../shared/replies.ts';
import type { Replies } from '../shared/replies.ts';
import type { Topics } from '../shared/topics.ts';
import { fromConsumed } from './records.ts';
import type { StreamTuning } from './consumer.ts';

export interface PlatformaticRepliesConfig {
  base: BaseOptions;
  topics: Topics;
  replyTopic: string;
  instanceId: string;
  tuning: StreamTuning;
  log: BusLogger;
}

/**
 * As the kafkajs adapter's replies (kafkajs/replies.ts): every instance reads the whole reply topic
 * in a group of its own, from the topic's end when it starts, never commits, and keeps the replies
 * to its own requests. The stream is in manual mode: its positions live in memory and survive a
 * rejoin; should the stream fail (a broker gone), a new one starts where the last one was.
 */
export function createPlatformaticReplies({ base, topics, replyTopic, instanceId, tuning, log }: PlatformaticRepliesConfig): Replies {
  const waiting = waitingReplies(instanceId);
  const positions = new Map<number, bigint>();
  let consumer: ConsumerClient<Buffer, Buffer, Buffer, Buffer> | undefined;
  let started: Promise<void> | undefined;
  let closedWith: Error | undefined;
  let restarting: NodeJS.Timeout | undefined;

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
      waiting.settle(fromConsumed(message));
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
    expect: waiting.expect,
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
      waiting.rejectAll(error);
      await started?.catch(() => undefined);
      await consumer?.close(true).catch(() => undefined);
    },
  };
}
