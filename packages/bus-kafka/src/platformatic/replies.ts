import { once } from 'node:events';
import { Consumer, MessagesStreamModes } from '@platformatic/kafka';
import type { BaseOptions, MessagesStream } from '@platformatic/kafka';
import type { BusLogger } from '../shared/log.ts';
import type { ReadReplies } from '../shared/replies.ts';
import type { StreamTuning } from './consumer.ts';
import { fromConsumed } from './records.ts';

/**
 * The reply reader on @platformatic/kafka (shared/replies.ts): a stream in manual mode, whose
 * positions live in memory and survive a rejoin; should the stream fail (a broker gone), a new one
 * starts where the last one was.
 */
export const platformaticReplyReader =
  (base: BaseOptions, tuning: StreamTuning, log: BusLogger): ReadReplies =>
  async ({ topic, groupId, startAt, settle }) => {
    const positions = new Map([...startAt].map(([partition, offset]) => [partition, BigInt(offset)]));
    let restarting: NodeJS.Timeout | undefined;
    let stopped = false;
    const consumer = new Consumer<Buffer, Buffer, Buffer, Buffer>({
      ...base,
      groupId,
      autocommit: false,
      sessionTimeout: tuning.sessionTimeoutMs,
      rebalanceTimeout: tuning.rebalanceTimeoutMs,
      heartbeatInterval: tuning.heartbeatIntervalMs,
      maxWaitTime: tuning.maxWaitTimeMs,
    });
    consumer.on('error', (error: Error) => log.warn({ topic, error: error.message }, 'reply consumer error'));

    async function open(): Promise<MessagesStream<Buffer, Buffer, Buffer, Buffer>> {
      const stream = await consumer.consume({
        topics: [topic],
        mode: MessagesStreamModes.MANUAL,
        offsets: [...positions].map(([partition, offset]) => ({ topic, partition, offset })),
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
        if (stopped) return;
        log.warn({ topic, error: error.message }, 'reply stream failed: starting a new one');
        const again = () => {
          if (!stopped) restarting = setTimeout(() => void open().catch(again), 1_000);
        };
        again();
      });
      return stream;
    }

    async function stop(): Promise<void> {
      stopped = true;
      clearTimeout(restarting);
      await consumer.close(true).catch(() => undefined);
    }

    try {
      const stream = await open();
      await once(stream, 'fetch');
    } catch (error) {
      await stop();
      throw error;
    }
    return { stop };
  };
