import { Admin, ProduceAcks, Producer, compatibilityPartitioner } from '@platformatic/kafka';
import type { BaseOptions } from '@platformatic/kafka';
import { assembleBus } from '../shared/assemble.ts';
import { busSettings } from '../shared/options.ts';
import type { KafkaBusOptions } from '../shared/options.ts';
import { createSender } from '../shared/sender.ts';
import { createTopics } from '../shared/topics.ts';
import { startStreamConsumer } from './consumer.ts';
import type { StreamTuning } from './consumer.ts';
import { toProduce } from './records.ts';
import { platformaticReplyReader } from './replies.ts';
import { commitIfEmpty, platformaticTopicAdmin } from './topics.ts';
import type { Bus } from '@parcel-logistics/bus';

/**
 * The Kafka bus on @platformatic/kafka instead of kafkajs: the same port, options, topics,
 * headers, partitioning (murmur2 as Java and kafkajs), offsets and dead letters, so processes of
 * both adapters can share topics and groups. Differences: a record starts as soon as it is
 * fetched unless a record of its key is unfinished, rather than after the batch before it (the
 * stream fetches ahead while handlers run; shared/flow.ts), and a member rejoins a rebalance
 * at once rather than after its running handlers finished, so during a rebalance a record may run
 * in the old and the new owner at the same time (at least once either way). `logLevel` and
 * `logger` take the bus's own entries; the client logs through the `debug` module
 * (DEBUG=plt:kafka*).
 */
export async function createPlatformaticKafkaBus(options: KafkaBusOptions): Promise<Bus> {
  const settings = busSettings(options);
  const { log } = settings;
  const tuning: StreamTuning = { ...settings.timing, maxQueued: 1_000 };
  // Metadata kept as long as kafkajs keeps it (an error refreshes it sooner).
  const base: BaseOptions = {
    clientId: options.clientId,
    bootstrapBrokers: options.brokers,
    retries: 8,
    retryDelay: 250,
    timeout: 30_000,
    metadataMaxAge: 300_000,
  };

  const admin = new Admin(base);
  const producer = new Producer<Buffer, Buffer, Buffer, Buffer>({
    ...base,
    idempotent: true,
    acks: ProduceAcks.ALL,
    autocreateTopics: false,
    partitioner: compatibilityPartitioner,
  });
  try {
    await Promise.all([admin.metadata({ topics: [] }), producer.initIdempotentProducer({})]);
  } catch (error) {
    await Promise.allSettled([admin.close(), producer.close(true)]);
    throw error;
  }

  const topics = createTopics(platformaticTopicAdmin(admin), options.ensureTopics);
  return assembleBus({
    settings,
    topics,
    sender: createSender(
      async (records) => {
        await producer.send({
          messages: records.map(({ topic, record }) => toProduce(topic, record)),
          acks: ProduceAcks.ALL,
        });
      },
      { lingerMs: settings.lingerMs },
    ),
    readReplies: platformaticReplyReader(base, tuning, log),
    async consume(topic, group, deliver) {
      await topics.partitions(topic);
      const uncommitted = await topics.uncommitted(group, topic);
      if (uncommitted.size > 0) {
        // A brand-new group starts where the topic ended when subscribe was called, committed
        // before it joins (see the kafkajs adapter); a group with members has its positions.
        const startAt = await topics.endOffsets(topic);
        await commitIfEmpty(
          admin,
          group,
          topic,
          new Map([...startAt].filter(([partition]) => uncommitted.has(partition))),
        );
      }
      return startStreamConsumer(
        base,
        { topic, groupId: group, keyConcurrency: settings.keyConcurrency, deliver },
        tuning,
        log,
      );
    },
    async ping() {
      await admin.metadata({ topics: [], forceUpdate: true });
    },
    async disconnect() {
      await Promise.allSettled([producer.close(true), admin.close()]);
    },
  });
}
