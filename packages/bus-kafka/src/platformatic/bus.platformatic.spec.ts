/**
 * The @platformatic/kafka adapter's tests. The library is an ES module only, which Jest's
 * CommonJS runtime cannot load without transforming it: bus.int.spec.ts beside it runs this file
 * in a Jest of its own (jest.platformatic.cjs) that does.
 */
import { describe, expect } from '@jest/globals';
import { eventually, makeMessage, slowIt } from '@parcel-logistics/bus/conformance';
import { createKafkaBus } from '../kafkajs/index.ts';
import { kafkaBusSuite, kafkaTestKit } from '../kafkaSuite.ts';
import { createPlatformaticKafkaBus } from './index.ts';
import type { Message } from '@parcel-logistics/bus';

const kit = kafkaTestKit();
const { options, fresh, createTopic } = kit;

kafkaBusSuite(kit, 'platformatic', createPlatformaticKafkaBus);

describe('Kafka bus adapters together', () => {
  slowIt(
    'share topics and groups: same partition per key, requests served across adapters, one group across both',
    async () => {
      const topic = await createTopic(6);
      const kafkajs = await createKafkaBus(options('together-kafkajs'));
      const platformatic = await createPlatformaticKafkaBus(options('together-platformatic'));
      try {
        const commands = await createTopic(6);
        await platformatic.handleRequests(commands, async (message) => `platformatic served ${message.id}`);
        const request = makeMessage();
        await expect(kafkajs.request(commands, request, { timeoutMs: 20_000 })).resolves.toBe(
          `platformatic served ${request.id}`,
        );

        // One group with a member of each adapter: every message once, each key in order, whoever serves it.
        const group = fresh('group');
        const received = new Map<string, number[]>();
        const seen: string[] = [];
        const handler = async (message: Message) => {
          seen.push(message.id);
          received.set(message.key, [...(received.get(message.key) ?? []), (message.payload as { seq: number }).seq]);
        };
        await kafkajs.subscribe(topic, group, handler);
        await platformatic.subscribe(topic, group, handler);
        const keys = ['k-1', 'k-2', 'k-3', 'k-4', 'k-5', 'k-6', 'k-7'];
        for (let seq = 0; seq < 70; seq += 1) {
          await (seq % 2 ? kafkajs : platformatic).publish(
            topic,
            makeMessage({ key: keys[seq % keys.length], payload: { seq } }),
          );
        }
        await eventually(() =>
          keys.forEach((key) =>
            expect(received.get(key)).toEqual(
              Array.from({ length: 10 }, (_, n) => n * keys.length + keys.indexOf(key)),
            ),
          ),
        );
        expect(new Set(seen).size).toBe(70);

        // A key lands in one partition whichever adapter sent it (murmur2, as Java's and kafkajs's default partitioner).
        const offsets = await kit.admin().fetchTopicOffsets(topic);
        expect(offsets.reduce((sum, { high }) => sum + Number(high), 0)).toBe(70);
        expect(offsets.filter(({ high }) => Number(high) > 0).length).toBeLessThanOrEqual(keys.length);
        for (const { high } of offsets) expect(Number(high) % 10).toBe(0);
      } finally {
        await Promise.all([kafkajs.close(), platformatic.close()]);
      }
    },
  );
});
