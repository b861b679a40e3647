import type { Kafka } from 'kafkajs';
import type { GroupConsumer } from '../shared/consumer.ts';
import type { BusLogger } from '../shared/log.ts';
import { waitingReplies } from '../shared/replies.ts';
import type { Replies } from '../shared/replies.ts';
import type { Topics } from '../shared/topics.ts';
import { startGroupConsumer } from './consumer.ts';
import type { ConsumerTuning } from './consumer.ts';

export interface RepliesConfig {
  kafka: Kafka;
  topics: Topics;
  replyTopic: string;
  instanceId: string;
  tuning: ConsumerTuning;
  log: BusLogger;
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
