import type { Kafka } from 'kafkajs';
import type { BusLogger } from '../shared/log.ts';
import type { ReadReplies } from '../shared/replies.ts';
import { startGroupConsumer } from './consumer.ts';
import type { ConsumerTuning } from './consumer.ts';

/** The reply reader on kafkajs (shared/replies.ts): a member that seeks to its in-memory positions after each rejoin. */
export const kafkajsReplyReader =
  (kafka: Kafka, tuning: ConsumerTuning, log: BusLogger): ReadReplies =>
  async ({ topic, groupId, startAt, settle }) => {
    const positions = new Map(startAt);
    const consumer = await startGroupConsumer(
      kafka,
      {
        topic,
        groupId,
        commit: false,
        partitionsConcurrently: 1,
        seekOnJoin: (partitions) =>
          partitions.flatMap((partition) => {
            const offset = positions.get(partition);
            return offset === undefined ? [] : [{ partition, offset }];
          }),
        eachBatch: async ({ batch, resolveOffset }) => {
          for (const record of batch.messages) {
            settle(record);
            positions.set(batch.partition, (BigInt(record.offset) + 1n).toString());
            resolveOffset(record.offset);
          }
        },
      },
      tuning,
      log,
    );
    return { stop: () => consumer.stop('abandon') };
  };
