/**
 * The Kafka adapters' shared tests: the bus conformance suite and the Kafka specifics, for one
 * adapter (kafkajs/bus.int.spec.ts; platformatic/bus.platformatic.spec.ts).
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect } from '@jest/globals';
import { Kafka } from 'kafkajs';
import type { Admin } from 'kafkajs';
import { busConformance, eventually, makeMessage, slowIt, TEST_MS } from '@parcel-logistics/bus/conformance';
import type { BusLogLevel, BusLogger } from './shared/log.ts';
import type { KafkaBusOptions } from './shared/options.ts';
import { tombstone } from '@parcel-logistics/bus';
import type { Bus, Message } from '@parcel-logistics/bus';

export interface KafkaTestKit {
  brokers: string[];
  options: (clientId: string, overrides?: Partial<KafkaBusOptions>) => KafkaBusOptions;
  fresh: (label: string) => string;
  createTopic: (partitions: number) => Promise<string>;
  admin: () => Admin;
  quiet: BusLogger;
}

/** Broker settings, fresh names, and an admin client that deletes the suite's topics and groups afterwards. Call at the top of a spec file. */
export function kafkaTestKit(): KafkaTestKit {
  const brokerList = process.env.PARCEL_KAFKA_BROKERS;
  if (!brokerList) {
    throw new Error(
      'PARCEL_KAFKA_BROKERS is not set: start Kafka first with `eval "$(bash infra/up.sh kafka)"` (npm test does it for you)',
    );
  }
  const brokers = brokerList.split(',');
  const run = randomUUID().slice(0, 8);
  let counter = 0;
  const fresh = (label: string) => `bus-kafka.${label}.${run}.${(counter += 1)}`;

  /** Topics the buses created; deleted at the end so a shared broker does not fill up with test topics. */
  const created = new Set<string>();
  const options = (clientId: string, overrides: Partial<KafkaBusOptions> = {}): KafkaBusOptions => ({
    brokers,
    clientId,
    logLevel: (process.env.PARCEL_BUS_LOG_LEVEL as BusLogLevel | undefined) ?? 'nothing',
    ensureTopics: { partitions: 6, onCreated: (topic) => created.add(topic) },
    ...overrides,
  });

  let admin: Admin;
  beforeAll(async () => {
    admin = new Kafka({ clientId: 'bus-kafka-spec', brokers, logCreator: () => () => undefined }).admin();
    await admin.connect();
  });
  afterAll(async () => {
    if (created.size > 0) await admin.deleteTopics({ topics: [...created] }).catch(() => undefined);
    // Groups on topics that stay (the dead-letter topic) would otherwise keep their offsets for a week.
    // Only empty groups can be deleted, so a suite running elsewhere at the same time keeps its own.
    const { groups } = await admin.listGroups();
    const ours = groups.map(({ groupId }) => groupId).filter((groupId) => /^(conformance|bus-kafka)\./.test(groupId));
    if (ours.length > 0) await admin.deleteGroups(ours).catch(() => undefined);
    await admin.disconnect();
  }, TEST_MS);

  async function createTopic(partitions: number): Promise<string> {
    const topic = fresh('topic');
    await admin.createTopics({
      topics: [{ topic, numPartitions: partitions, replicationFactor: 1 }],
      waitForLeaders: true,
    });
    created.add(topic);
    return topic;
  }

  const quiet: BusLogger = {
    error: () => undefined,
    warn: () => undefined,
    info: () => undefined,
    debug: () => undefined,
  };
  return { brokers, options, fresh, createTopic, admin: () => admin, quiet };
}

export function kafkaBusSuite(
  kit: KafkaTestKit,
  adapter: string,
  createBus: (options: KafkaBusOptions) => Promise<Bus>,
): void {
  const { options, fresh, createTopic } = kit;
  busConformance(`kafka (${adapter})`, async () => {
    const bus = await createBus(options('conformance-a'));
    const second = await createBus(options('conformance-b'));
    return {
      bus,
      second,
      maxDeliveries: 5,
      cleanup: async () => {
        await Promise.all([bus.close(), second.close()]);
      },
    };
  });

  describe(`Kafka bus specifics (${adapter})`, () => {
    const buses: Bus[] = [];
    const open = async (clientId: string, overrides: Partial<KafkaBusOptions> = {}) => {
      const bus = await createBus(options(clientId, overrides));
      buses.push(bus);
      return bus;
    };
    afterAll(async () => {
      await Promise.all(buses.map((bus) => bus.close()));
    }, TEST_MS);

    slowIt('refuses a topic that does not exist when it may not create topics', async () => {
      const bus = await open('strict', { ensureTopics: undefined });
      const topic = fresh('missing');
      await expect(bus.publish(topic, makeMessage())).rejects.toThrow(`topic ${topic} does not exist`);
      await expect(bus.subscribe(topic, fresh('group'), async () => undefined)).rejects.toThrow('infra/topics.sh');
      expect(await kit.admin().listTopics()).not.toContain(topic);
    });

    slowIt('overlaps different keys of one partition within a fetched batch, and keeps each key in order', async () => {
      const topic = await createTopic(1);
      const bus = await open('one-partition');
      const releaseA = Promise.withResolvers<void>();
      const seen: string[] = [];
      await bus.subscribe(topic, fresh('group'), async (message) => {
        seen.push(`${message.key}:${(message.payload as { n: number }).n}`);
        // Key a waits for key b: this only finishes if both run at the same time.
        if (message.key === 'a') await releaseA.promise;
        if (message.key === 'b') releaseA.resolve();
      });
      // Sent together, they go out in one produce request and so arrive in one fetched batch.
      const sends = [
        ['a', 1],
        ['a', 2],
        ['b', 1],
      ] as const;
      await Promise.all(sends.map(([key, n]) => bus.publish(topic, makeMessage({ key, payload: { n } }))));
      await eventually(() => expect([...seen].sort()).toEqual(['a:1', 'a:2', 'b:1']));
      expect(seen.filter((entry) => entry.startsWith('a'))).toEqual(['a:1', 'a:2']);
    });

    slowIt('delivers an unfinished message again to the next member, as it was never committed', async () => {
      const topic = await createTopic(1);
      const group = fresh('group');
      const first = await createBus(options('abandoning'));
      const started = Promise.withResolvers<void>();
      await first.subscribe(topic, group, async () => {
        started.resolve();
        await new Promise(() => undefined); // never finishes: the process "dies" with it
      });
      const stuck = makeMessage();
      await first.publish(topic, stuck);
      await started.promise;
      await first.close();

      const redelivered: Message[] = [];
      const next = await open('taking-over');
      await next.subscribe(topic, group, async (message) => void redelivered.push(message));
      await eventually(() => expect(redelivered.map((message) => message.id)).toEqual([stuck.id]));
    });

    slowIt(
      'commits what was handled within about a second while idle, and at once on unsubscribe and on close',
      async () => {
        const topic = await createTopic(1);
        const group = fresh('group');
        const committed = async () =>
          (await kit.admin().fetchOffsets({ groupId: group, topics: [topic] }))[0]?.partitions[0]?.offset;
        const handled: string[] = [];
        const first = await createBus(options('committing'));
        const unsubscribe = await first.subscribe(topic, group, async (message) => void handled.push(message.id));
        expect(await committed()).toBe('0'); // a new group's starting position, committed before subscribe resolved
        for (let n = 0; n < 5; n += 1) await first.publish(topic, makeMessage({ key: 'k' }));
        await eventually(() => expect(handled).toHaveLength(5));
        await eventually(async () => expect(await committed()).toBe('5'), 5_000);

        for (let n = 0; n < 3; n += 1) await first.publish(topic, makeMessage({ key: 'k' }));
        await eventually(() => expect(handled).toHaveLength(8));
        await unsubscribe();
        expect(await committed()).toBe('8');

        await first.subscribe(topic, group, async (message) => void handled.push(message.id));
        await first.publish(topic, makeMessage({ key: 'k' }));
        await eventually(() => expect(handled).toHaveLength(9));
        await first.close();
        expect(await committed()).toBe('9');

        // The next member starts after what was handled: nothing is delivered twice.
        const next = await open('after-commits');
        const again: string[] = [];
        await next.subscribe(topic, group, async (message) => void again.push(message.id));
        const last = makeMessage({ key: 'k' });
        await next.publish(topic, last);
        await eventually(() => expect(again).toEqual([last.id]));
        expect(new Set(handled).size).toBe(9);
      },
    );

    slowIt('dead-letters with the original group and position, and moves on', async () => {
      const topic = await createTopic(1);
      const deadLetterTopic = await createTopic(1);
      const bus = await open('dead-letters', { deadLetterTopic, maxDeliveries: 2, redeliveryDelayMs: 5 });
      const group = fresh('group');
      const dead: Message[] = [];
      const handled: string[] = [];
      await bus.subscribe(deadLetterTopic, fresh('ops'), async (message) => void dead.push(message));
      await bus.subscribe(topic, group, async (message) => {
        if (message.type === 'Poison') throw new Error('bad payload');
        handled.push(message.id);
      });
      const poison = makeMessage({ key: 'k', type: 'Poison' });
      const after = makeMessage({ key: 'k' });
      await bus.publish(topic, poison);
      await bus.publish(topic, after);
      await eventually(() => expect(handled).toEqual([after.id]));
      await eventually(() => expect(dead.map((message) => message.id)).toEqual([poison.id]));
      expect(dead[0]).toMatchObject({ key: 'k', type: 'Poison' });
      expect(dead[0]?.headers).toMatchObject({
        'x-dead-letter-reason': 'bad payload',
        'x-original-topic': topic,
        'x-original-group': group,
        'x-original-partition': '0',
        'x-original-offset': '0',
      });
    });

    slowIt('publishes a tombstone as a record with a null value, and any other payload as JSON', async () => {
      const topic = await createTopic(1);
      const bus = await open('tombstones');
      await bus.publish(topic, makeMessage({ key: 'k', payload: { n: 1 } }));
      await bus.publish(topic, tombstone('k', 'gone-1', 'Erased'));
      const consumer = new Kafka({
        clientId: 'raw-reader',
        brokers: kit.brokers,
        logCreator: () => () => undefined,
      }).consumer({ groupId: fresh('raw') });
      const values: (string | null)[] = [];
      await consumer.connect();
      try {
        await consumer.subscribe({ topic, fromBeginning: true });
        await consumer.run({
          eachMessage: async ({ message }) => void values.push(message.value?.toString() ?? null),
        });
        await eventually(() => expect(values).toEqual(['{"n":1}', null]));
      } finally {
        await consumer.disconnect();
      }
    });

    slowIt('closes idempotently', async () => {
      const bus = await createBus(options('closing-twice'));
      await Promise.all([bus.close(), bus.close()]);
      await expect(bus.close()).resolves.toBeUndefined();
    });
  });
}
