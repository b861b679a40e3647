import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { webhookDeliveriesConformance, webhookStoreConformance } from '@parcel-logistics/webhooks/conformance';
import { storeInTempFile } from '@parcel-logistics/sqlite/scratch';
import { createSqliteWebhookStore } from './sqlite.ts';
import { createSqliteWebhookDeliveries } from './sqliteDeliveries.ts';

webhookStoreConformance('sqlite file', () =>
  storeInTempFile('webhooks.db', (file) => createSqliteWebhookStore({ file })),
);

webhookStoreConformance('sqlite :memory:', async () => {
  const store = createSqliteWebhookStore({ file: ':memory:' });
  return { store, cleanup: () => store.close() };
});

webhookDeliveriesConformance('sqlite :memory:', async () => {
  const deliveries = createSqliteWebhookDeliveries({ file: ':memory:' });
  return { deliveries, cleanup: () => deliveries.close() };
});

webhookDeliveriesConformance('sqlite file', async () => {
  const { store: deliveries, cleanup } = await storeInTempFile('webhooks.db', (file) =>
    createSqliteWebhookDeliveries({ file }),
  );
  return { deliveries, cleanup };
});

test('a webhooks.db written before the delivery log is upgraded with its queued deliveries kept, in order', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'parcel-webhooks-'));
  const file = join(dir, 'webhooks.db');
  const old = new DatabaseSync(file);
  old.exec(`CREATE TABLE webhook_deliveries (endpoint_id TEXT NOT NULL, event_id TEXT NOT NULL, position INTEGER NOT NULL, body TEXT NOT NULL,
    attempts INTEGER NOT NULL DEFAULT 0, next_attempt_at INTEGER NOT NULL, failing_since INTEGER, PRIMARY KEY (endpoint_id, event_id));
    CREATE INDEX webhook_deliveries_in_order ON webhook_deliveries (endpoint_id, position);`);
  const insert = old.prepare('INSERT INTO webhook_deliveries VALUES (?, ?, ?, ?, ?, ?, ?)');
  insert.run('we_a', 'ev-5', 5, '{"p":5}', 0, 2000, null);
  insert.run('we_a', 'ev-2', 2, '{"p":2}', 3, 9000, 1000);
  old.close();
  const deliveries = createSqliteWebhookDeliveries({ file });
  try {
    expect(await deliveries.head('we_a')).toEqual({
      endpointId: 'we_a',
      eventId: 'ev-2',
      position: 2,
      body: '{"p":2}',
      attempts: 3,
      nextAttemptAt: new Date(9000),
      failingSince: new Date(1000),
    });
    expect(
      (await deliveries.messages('we_a', { limit: 10 })).map((m) => [m.eventId, m.state, m.queuedAt.getTime()]),
    ).toEqual([
      ['ev-5', 'pending', 2000],
      ['ev-2', 'pending', 9000],
    ]);
    await deliveries.settle('we_a', 'ev-2', 'delivered', 4, new Date(10_000));
    expect((await deliveries.head('we_a'))?.eventId).toBe('ev-5');
  } finally {
    await deliveries.close();
  }
  const again = createSqliteWebhookDeliveries({ file });
  expect((await again.messages('we_a', { limit: 10 })).map((m) => m.state)).toEqual(['pending', 'delivered']);
  await again.close();
  await rm(dir, { recursive: true, force: true });
});
