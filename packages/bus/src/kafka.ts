import { randomUUID } from 'node:crypto';
import { Kafka, Partitioners, logLevel } from 'kafkajs';
import type { Message as KafkaRecord, RetryOptions } from 'kafkajs';
import './kafka/idlePollFix.ts';
import { runBatch } from './kafka/batch.ts';
import { busHeader, encode, encodeValue } from './kafka/codec.ts';
import type { Decoded } from './kafka/codec.ts';
import { startGroupConsumer } from './kafka/consumer.ts';
import type { ConsumerTuning, GroupConsumer } from './kafka/consumer.ts';
import { deliverer } from './kafka/delivery.ts';
import { filtered, kafkaLogCreator, reasonOf, stderrLogger } from './kafka/log.ts';
import type { BusLogLevel, BusLogger } from './kafka/log.ts';
import { createReplies } from './kafka/replies.ts';
import { createSender } from './kafka/sender.ts';
import { createTopics } from './kafka/topics.ts';
import type { EnsureTopics } from './kafka/topics.ts';
import type { Bus, Message, Unsubscribe } from './port.ts';

export type { BusLogLevel, BusLogger } from './kafka/log.ts';
export type { EnsureTopics } from './kafka/topics.ts';

export interface KafkaBusOptions {
  brokers: string[];
  clientId: string;
  /** Unique per process: names this instance's reply group and marks its requests. Default: clientId plus a random suffix. */
  instanceId?: string;
  /** Default `parcel.replies`. */
  replyTopic?: string;
  /** Default `parcel.deadletter.v1`. */
  deadLetterTopic?: string;
  /** Deliveries of one message to a group before it goes to the dead-letter topic (default 5). */
  maxDeliveries?: number;
  /** Pause before a redelivery, doubling each time up to 2 s (default 50 ms). */
  redeliveryDelayMs?: number;
  /** Handlers of different keys running at once within one partition (default 16). */
  keyConcurrency?: number;
  /** How long an unsubscribe waits for running handlers before leaving them to redelivery (default 10 s). */
  drainTimeoutMs?: number;
  /** Create missing topics with this many partitions (tests, development). Otherwise a missing topic is an error: infra/topics.sh creates them. */
  ensureTopics?: EnsureTopics;
  /** Default `error`. */
  logLevel?: BusLogLevel;
  /** Receives kafkajs's and the bus's own log entries (a pino logger fits). Default: JSON lines on stderr. */
  logger?: BusLogger;
}

const retry: RetryOptions = { initialRetryTime: 100, maxRetryTime: 2_000, retries: 8 };
const kafkaLevels: Record<BusLogLevel, logLevel> = {
  nothing: logLevel.NOTHING,
  error: logLevel.ERROR,
  warn: logLevel.WARN,
  info: logLevel.INFO,
  debug: logLevel.DEBUG,
};
const pingTimeoutMs = 5_000;

/**
 * The distributed wiring's bus on Kafka. Requests go to the command topic keyed by the message's
 * key and are served by the consumer group named after the topic; replies come back on the reply
 * topic. Subscriptions are consumer groups that commit an offset only once its message (and every
 * one before it) was handled.
 */
export async function createKafkaBus(options: KafkaBusOptions): Promise<Bus> {
  const instanceId = options.instanceId ?? `${options.clientId}-${randomUUID().slice(0, 8)}`;
  const replyTopic = options.replyTopic ?? 'parcel.replies';
  const keyConcurrency = options.keyConcurrency ?? 16;
  const policy = {
    maxDeliveries: options.maxDeliveries ?? 5,
    redeliveryDelayMs: options.redeliveryDelayMs ?? 50,
    maxRedeliveryDelayMs: 2_000,
    deadLetterTopic: options.deadLetterTopic ?? 'parcel.deadletter.v1',
  };
  const level = options.logLevel ?? 'error';
  const log = filtered(options.logger ?? stderrLogger, level);
  const heartbeatIntervalMs = 500;
  const tuning: ConsumerTuning = {
    // Frequent heartbeats: members notice a rebalance within about a second, so a joining process
    // gets its partitions quickly; the session still survives short stalls. A fetch returns as soon
    // as a record arrives, so its wait only sets how often an idle member asks again. The idle
    // distributed cluster spent about a quarter of a core on that at 50 ms, half as much at 250 ms.
    config: { sessionTimeout: 10_000, rebalanceTimeout: 30_000, heartbeatInterval: heartbeatIntervalMs, maxWaitTimeInMs: 250, retry },
    heartbeatIntervalMs,
    startTimeoutMs: 30_000,
    drainTimeoutMs: options.drainTimeoutMs ?? 10_000,
  };

  const kafka = new Kafka({
    clientId: options.clientId,
    brokers: options.brokers,
    retry,
    logLevel: kafkaLevels[level],
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

  const topics = createTopics(admin, options.ensureTopics);
  const sender = createSender(producer);
  const replies = createReplies({ kafka, topics, replyTopic, instanceId, tuning, log });
  const consumers = new Set<GroupConsumer>();
  let closing: Promise<void> | undefined;

  const closedError = () => new Error('bus is closed');
  const assertOpen = () => {
    if (closing) throw closedError();
  };

  async function consume(topic: string, group: string, handle: (decoded: Decoded) => Promise<void>): Promise<Unsubscribe> {
    const partitions = await topics.partitions(topic);
    const startAt = await topics.endOffsets(topic);
    const uncommitted = await topics.uncommitted(group, topic);
    const deliver = deliverer({ topic, group, policy, sender, log }, handle);
    const consumer = await startGroupConsumer(kafka, {
      topic,
      groupId: group,
      autoCommit: true,
      partitionsConcurrently: partitions,
      // A brand-new group starts where the topic ended when subscribe was called, and commits that
      // position right away: a partition that moves to another member before its first message
      // is then not started again at "latest", which would skip what arrived in between.
      seekOnJoin: (assigned) => assigned.flatMap((partition) => {
        const offset = startAt.get(partition);
        return uncommitted.delete(partition) && offset !== undefined ? [{ partition, offset }] : [];
      }),
      eachBatch: (payload, context) => runBatch(payload, (record) => deliver(record, payload.batch.partition, context), {
        concurrency: keyConcurrency,
        proceed: context.proceed,
        abandoned: context.abandoned,
      }),
    }, tuning, log);
    if (closing) {
      await consumer.stop('abandon');
      throw closedError();
    }
    consumers.add(consumer);
    return async () => {
      if (consumers.delete(consumer)) await consumer.stop('drain');
    };
  }

  async function serve(handler: (message: Message) => Promise<unknown>, { message, bus }: Decoded): Promise<void> {
    const correlationId = bus[busHeader.correlationId];
    const replyTo = bus[busHeader.replyTo];
    const headers = { [busHeader.correlationId]: correlationId ?? '', [busHeader.requester]: bus[busHeader.requester] ?? '' };
    let reply: KafkaRecord;
    try {
      reply = { key: correlationId, value: encodeValue(await handler(message)), headers };
    } catch (error) {
      reply = { key: correlationId, value: JSON.stringify({ message: reasonOf(error) }), headers: { ...headers, [busHeader.error]: '1' } };
    }
    // Sending the reply may fail (broker gone): that throws, and the request is delivered again.
    if (replyTo && correlationId) await sender.send(replyTo, reply);
  }

  const bus: Bus = {
    async request<TReply>(topic: string, message: Message, { timeoutMs }: { timeoutMs: number }): Promise<TReply> {
      assertOpen();
      const correlationId = randomUUID();
      const pending = replies.expect<TReply>(correlationId, topic, timeoutMs);
      const send = async () => {
        await Promise.all([replies.ready(), topics.partitions(topic)]);
        await sender.send(topic, encode(message, {
          [busHeader.correlationId]: correlationId,
          [busHeader.replyTo]: replyTopic,
          [busHeader.requester]: instanceId,
        }));
      };
      send().catch((error: unknown) => pending.fail(error instanceof Error ? error : new Error(String(error))));
      return pending.reply;
    },

    async handleRequests(topic, handler) {
      assertOpen();
      // The group is named after the topic: every process serving it shares its partitions.
      return consume(topic, topic, (decoded) => serve(handler, decoded));
    },

    async publish(topic, message) {
      assertOpen();
      await topics.partitions(topic);
      await sender.send(topic, encode(message));
    },

    async subscribe(topic, group, handler) {
      assertOpen();
      return consume(topic, group, ({ message }) => handler(message));
    },

    async ping() {
      assertOpen();
      let timer: NodeJS.Timeout | undefined;
      const timeout = new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error(`Kafka did not answer within ${pingTimeoutMs} ms`)), pingTimeoutMs);
      });
      try {
        await Promise.race([admin.describeCluster(), timeout]);
      } finally {
        clearTimeout(timer);
      }
    },

    close() {
      closing ??= (async () => {
        const error = new Error('bus closed before the reply arrived');
        const stopping = [...consumers].map((consumer) => consumer.stop('abandon'));
        consumers.clear();
        await Promise.allSettled([replies.close(error), ...stopping]);
        await sender.close(closedError());
        await Promise.allSettled([producer.disconnect(), admin.disconnect()]);
      })();
      return closing;
    },
  };
  return bus;
}
