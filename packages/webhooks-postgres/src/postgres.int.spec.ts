/**
 * The PostgreSQL webhook adapters against the ports' conformance suites, and what only several
 * processes can show: two store objects (two gateways, two webhook instances) on one schema.
 */
import { afterEach, expect, it } from '@jest/globals';
import {
  endpointOf,
  webhookDeliveriesConformance,
  webhookStoreConformance,
} from '@parcel-logistics/webhooks/conformance';
import type { WebhookDeliveries, WebhookStore } from '@parcel-logistics/webhooks';
import { createPostgresWebhookDeliveries } from './postgresDeliveries.ts';
import { createPostgresWebhookStore } from './postgresStore.ts';
import { pgTestUrl, storeInTempSchema, tempSchema } from '@parcel-logistics/postgres/scratch';

const url = pgTestUrl();

webhookStoreConformance('postgres', () =>
  storeInTempSchema(url, (schema) => createPostgresWebhookStore({ connectionString: url, schema })),
);

webhookDeliveriesConformance('postgres', async () => {
  const { store: deliveries, cleanup } = await storeInTempSchema(url, (schema) =>
    createPostgresWebhookDeliveries({ connectionString: url, schema }),
  );
  return { deliveries, cleanup };
});

const opened: { close(): Promise<void> }[] = [];
const drops: (() => Promise<void>)[] = [];
afterEach(async () => {
  await Promise.all(opened.splice(0).map((s) => s.close()));
  await Promise.all(drops.splice(0).map((d) => d()));
});
async function twoOf<T extends { close(): Promise<void> }>(open: (schema: string) => Promise<T>): Promise<[T, T]> {
  const { schema, drop } = tempSchema(url);
  drops.push(drop);
  // Started together: the schema's tables are created once, the other starter waits its turn.
  const pair = await Promise.all([open(schema), open(schema)]);
  opened.push(...pair);
  return pair;
}

it('two store objects (two gateways) creating at once for one account never pass its cap together', async () => {
  const [a, b] = await twoOf<WebhookStore>((schema) =>
    createPostgresWebhookStore({ connectionString: url, schema, poolSize: 6 }),
  );
  const outcomes = await Promise.all(
    Array.from({ length: 24 }, (_, i) => (i % 2 ? a : b).create(endpointOf(`we_${i}`, 'c1'), 5)),
  );
  expect(outcomes.filter((o) => o === 'created')).toHaveLength(5);
  expect(await a.list('c1')).toHaveLength(5);
  expect(await b.create(endpointOf('we_other', 'c2'), 5)).toBe('created');
});

it('two queue objects (two webhook instances): one claim per endpoint, and the endpoints shared between them', async () => {
  const [a, b] = await twoOf<WebhookDeliveries>((schema) =>
    createPostgresWebhookDeliveries({ connectionString: url, schema, poolSize: 6 }),
  );
  const now = new Date('2026-11-24T12:00:00Z');
  const until = new Date(now.getTime() + 30_000);
  const endpoints = Array.from({ length: 10 }, (_, i) => `we_${i}`);
  const claims = await Promise.all(
    endpoints.flatMap((e) => [a.claim(e, 'a', now, until), b.claim(e, 'b', now, until)]),
  );
  for (let i = 0; i < endpoints.length; i++) expect([claims[2 * i], claims[2 * i + 1]].filter(Boolean)).toHaveLength(1);
  // What one instance queues, the other sees.
  await a.enqueue([{ endpointId: 'we_0', eventId: 'ev-1', position: 1, body: '{}' }], now);
  expect(await b.dueEndpoints(now)).toEqual(['we_0']);
});

it('replay requests racing on two queue objects (two gateways): one is stored, the others are busy', async () => {
  const [a, b] = await twoOf<WebhookDeliveries>((schema) =>
    createPostgresWebhookDeliveries({ connectionString: url, schema, poolSize: 6 }),
  );
  const now = new Date('2026-11-24T12:00:00Z');
  const replay = (id: string) => ({
    id,
    endpointId: 'we_0',
    since: now,
    requestedAt: now,
    status: 'requested' as const,
    position: 0,
    scanned: 0,
    queued: 0,
    finishedAt: null,
  });
  const outcomes = await Promise.all(
    Array.from({ length: 10 }, (_, i) => (i % 2 ? a : b).requestReplay(replay(`rp_${i}`))),
  );
  expect(outcomes.filter((o) => o === 'requested')).toHaveLength(1);
  expect(await a.openReplays()).toHaveLength(1);
});
