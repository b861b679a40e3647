import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { webhookDeliveriesConformance, webhookStoreConformance } from '@parcel/webhooks/conformance';
import { createSqliteWebhookStore } from './sqlite.ts';
import { createSqliteWebhookDeliveries } from './sqliteDeliveries.ts';

webhookStoreConformance('sqlite file', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'parcel-webhooks-'));
  const file = join(dir, 'webhooks.db');
  const store = createSqliteWebhookStore({ file });
  return {
    store,
    reopen: async () => createSqliteWebhookStore({ file }),
    cleanup: async () => {
      await store.close();
      await rm(dir, { recursive: true, force: true });
    },
  };
});

webhookStoreConformance('sqlite :memory:', async () => {
  const store = createSqliteWebhookStore({ file: ':memory:' });
  return { store, cleanup: () => store.close() };
});

webhookDeliveriesConformance('sqlite :memory:', async () => {
  const deliveries = createSqliteWebhookDeliveries({ file: ':memory:' });
  return { deliveries, cleanup: () => deliveries.close() };
});
