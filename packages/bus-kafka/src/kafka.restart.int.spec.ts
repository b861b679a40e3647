import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { Kafka } from 'kafkajs';
import { eventually, makeMessage } from '@parcel-logistics/bus/conformance';
import { createKafkaBus } from './kafkajs/index.ts';
import type { BusLogLevel } from './kafkajs/index.ts';
import type { Bus, Message } from '@parcel-logistics/bus';

/**
 * Stops and restarts the shared broker, which breaks anything else using it meanwhile: it runs
 * only when asked for (PARCEL_KAFKA_RESTART_TEST=1) and nothing else is talking to the broker.
 */
const wanted = process.env.PARCEL_KAFKA_RESTART_TEST === '1';
const brokerList = process.env.PARCEL_KAFKA_BROKERS;
if (wanted && !brokerList) {
  throw new Error('PARCEL_KAFKA_BROKERS is not set: start Kafka first with `eval "$(bash infra/up.sh kafka)"`');
}
const root = process.cwd();
const run = promisify(execFile);
const infra = (script: string) => run('bash', [join(root, 'infra', script), 'kafka'], { cwd: root, timeout: 180_000 });

(wanted ? describe : describe.skip)('Kafka bus across a broker restart', () => {
  const suffix = randomUUID().slice(0, 8);
  const commands = `bus-kafka.restart.commands.${suffix}`;
  const events = `bus-kafka.restart.events.${suffix}`;
  let service: Bus;
  let gateway: Bus;
  const received: Message[] = [];
  const created: string[] = [];

  beforeAll(async () => {
    expect(existsSync(join(root, 'infra', 'up.sh'))).toBe(true);
    const options = (clientId: string) => ({
      brokers: (brokerList ?? '').split(','),
      clientId,
      logLevel: (process.env.PARCEL_BUS_LOG_LEVEL as BusLogLevel | undefined) ?? 'nothing',
      ensureTopics: { partitions: 3, onCreated: (topic: string) => created.push(topic) },
    });
    service = await createKafkaBus(options('restart-service'));
    gateway = await createKafkaBus(options('restart-gateway'));
    await service.handleRequests(commands, async (message) => `served ${message.id}`);
    await service.subscribe(
      events,
      `bus-kafka.restart.group.${suffix}`,
      async (message) => void received.push(message),
    );
  }, 60_000);
  afterAll(async () => {
    await Promise.all([service?.close(), gateway?.close()]);
    const admin = new Kafka({
      clientId: 'restart-cleanup',
      brokers: (brokerList ?? '').split(','),
      logCreator: () => () => undefined,
    }).admin();
    await admin.connect();
    await admin.deleteTopics({ topics: created }).catch(() => undefined);
    await admin.disconnect();
  }, 60_000);

  it('pings and serves again once the broker is back', async () => {
    const before = makeMessage();
    await expect(gateway.request(commands, before, { timeoutMs: 10_000 })).resolves.toBe(`served ${before.id}`);

    await infra('down.sh');
    await expect(gateway.ping()).rejects.toThrow();
    await infra('up.sh');

    await eventually(() => gateway.ping(), 90_000);
    // Requests sent while the clients reconnect may time out; a later one is served.
    await eventually(async () => {
      const after = makeMessage();
      await expect(gateway.request(commands, after, { timeoutMs: 3_000 })).resolves.toBe(`served ${after.id}`);
    }, 90_000);
    const event = makeMessage();
    await gateway.publish(events, event);
    await eventually(() => expect(received.map((message) => message.id)).toContain(event.id), 60_000);
  }, 300_000);
});
