import { describe, expect } from '@jest/globals';
import { Kafka } from 'kafkajs';
import { eventually, slowIt } from '@parcel-logistics/bus/conformance';
import { kafkaBusSuite, kafkaTestKit } from '../kafkaSuite.ts';
import { startGroupConsumer } from './consumer.ts';
import { createKafkaBus } from './index.ts';

const kit = kafkaTestKit();
const { brokers, fresh, createTopic, quiet } = kit;

kafkaBusSuite(kit, 'kafkajs', createKafkaBus);

describe('Kafka bus on kafkajs', () => {
  slowIt('replaces a consumer that kafkajs gave up on', async () => {
    const topic = await createTopic(1);
    const kafka = new Kafka({ clientId: 'replaced', brokers, logCreator: () => () => undefined });
    const producer = kafka.producer();
    await producer.connect();
    const seen: string[] = [];
    const warnings: string[] = [];
    let batches = 0;
    let first = true;
    const consumer = await startGroupConsumer(
      kafka,
      {
        topic,
        groupId: fresh('group'),
        commit: true,
        partitionsConcurrently: 1,
        // As the bus does for a new group: start at the (empty) topic's end and commit that.
        seekOnJoin: () => {
          if (!first) return [];
          first = false;
          return [{ partition: 0, offset: '0' }];
        },
        eachBatch: async ({ batch }, { resolve }) => {
          // kafkajs treats a TypeError as unrecoverable and does not restart the consumer itself.
          if ((batches += 1) === 1) throw new TypeError('bug in a handler');
          for (const record of batch.messages) {
            seen.push(String(record.value));
            resolve(record.offset);
          }
        },
      },
      {
        config: {
          sessionTimeout: 10_000,
          heartbeatInterval: 500,
          maxWaitTimeInMs: 50,
          retry: { retries: 1, initialRetryTime: 50 },
        },
        heartbeatIntervalMs: 500,
        commitIntervalMs: 100,
        finalCommitTimeoutMs: 1_000,
        startTimeoutMs: 30_000,
        drainTimeoutMs: 1_000,
      },
      { ...quiet, warn: (_fields, message) => void warnings.push(message) },
    );
    try {
      await producer.send({ topic, messages: [{ value: 'hello' }] });
      await eventually(() => expect(seen).toEqual(['hello']));
      expect(warnings).toContain('kafkajs gave up on the consumer: starting a new one');
    } finally {
      await consumer.stop('abandon');
      await producer.disconnect();
    }
  });
});
