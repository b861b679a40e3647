import { Kafka, Partitioners, logLevel } from 'kafkajs';
import type { RetryOptions, logCreator } from 'kafkajs';
import { assembleBus } from '../shared/assemble.ts';
import type { BusLogLevel, BusLogger } from '../shared/log.ts';
import { busSettings } from '../shared/options.ts';
import type { KafkaBusOptions } from '../shared/options.ts';
import { createSender } from '../shared/sender.ts';
import { createTopics } from '../shared/topics.ts';
import { runBatch } from './batch.ts';
import { startGroupConsumer } from './consumer.ts';
import type { ConsumerTuning } from './consumer.ts';
import { kafkajsReplyReader } from './replies.ts';
import { kafkajsSendBatch } from './sender.ts';
import { kafkajsTopicAdmin } from './topics.ts';
import type { Bus } from '@parcel-logistics/bus';

export type { BusLogLevel, BusLogger } from '../shared/log.ts';
export type { KafkaBusOptions } from '../shared/options.ts';
export type { EnsureTopics } from '../shared/topics.ts';

const retry: RetryOptions = { initialRetryTime: 100, maxRetryTime: 2_000, retries: 8 };
const kafkaLevels: Record<BusLogLevel, logLevel> = {
  nothing: logLevel.NOTHING,
  error: logLevel.ERROR,
  warn: logLevel.WARN,
  info: logLevel.INFO,
  debug: logLevel.DEBUG,
};

function kafkaLogCreator(logger: BusLogger): logCreator {
  return () =>
    ({ namespace, level, log }) => {
      const { message, timestamp: _timestamp, ...extra } = log;
      const fields = { kafkajs: namespace, ...extra };
      if (level === logLevel.ERROR) logger.error(fields, message);
      else if (level === logLevel.WARN) logger.warn(fields, message);
      else if (level === logLevel.INFO) logger.info(fields, message);
      else logger.debug(fields, message);
    };
}

/**
 * The distributed wiring's bus on Kafka. Requests go to the command topic keyed by the message's
 * key and are served by the consumer group named after the topic; replies come back on the reply
 * topic. Subscriptions are consumer groups that commit an offset only once its message (and every
 * one before it) was handled.
 */
export async function createKafkaBus(options: KafkaBusOptions): Promise<Bus> {
  const settings = busSettings(options);
  const { log, timing } = settings;
  const tuning: ConsumerTuning = {
    ...timing,
    config: {
      sessionTimeout: timing.sessionTimeoutMs,
      rebalanceTimeout: timing.rebalanceTimeoutMs,
      heartbeatInterval: timing.heartbeatIntervalMs,
      maxWaitTimeInMs: timing.maxWaitTimeMs,
      retry,
    },
  };

  const kafka = new Kafka({
    clientId: options.clientId,
    brokers: options.brokers,
    retry,
    logLevel: kafkaLevels[settings.logLevel],
    logCreator: kafkaLogCreator(log),
  });
  const admin = kafka.admin({ retry });
  const producer = kafka.producer({
    idempotent: true,
    maxInFlightRequests: 1,
    retry,
    allowAutoTopicCreation: false,
    createPartitioner: Partitioners.DefaultPartitioner,
  });
  try {
    await Promise.all([admin.connect(), producer.connect()]);
  } catch (error) {
    await Promise.allSettled([admin.disconnect(), producer.disconnect()]);
    throw error;
  }

  const topics = createTopics(kafkajsTopicAdmin(admin), options.ensureTopics);
  return assembleBus({
    settings,
    topics,
    sender: createSender(kafkajsSendBatch(producer), { lingerMs: settings.lingerMs }),
    readReplies: kafkajsReplyReader(kafka, tuning, log),
    async consume(topic, group, deliver) {
      const partitions = await topics.partitions(topic);
      const startAt = await topics.endOffsets(topic);
      const uncommitted = await topics.uncommitted(group, topic);
      return startGroupConsumer(
        kafka,
        {
          topic,
          groupId: group,
          commit: true,
          partitionsConcurrently: partitions,
          // A brand-new group starts where the topic ended when subscribe was called, and commits that
          // position right away: a partition that moves to another member before its first message
          // is then not started again at "latest", which would skip what arrived in between.
          seekOnJoin: (assigned) =>
            assigned.flatMap((partition) => {
              const offset = startAt.get(partition);
              return uncommitted.delete(partition) && offset !== undefined ? [{ partition, offset }] : [];
            }),
          eachBatch: (payload, context) =>
            runBatch(payload.batch.messages, (record) => deliver(record, payload.batch.partition, context), {
              concurrency: settings.keyConcurrency,
              resolve: context.resolve,
              proceed: context.proceed,
              abandoned: context.abandoned,
            }),
        },
        tuning,
        log,
      );
    },
    async ping() {
      await admin.describeCluster();
    },
    async disconnect() {
      await Promise.allSettled([producer.disconnect(), admin.disconnect()]);
    },
  });
}
