export { createPostgresWebhookStore } from './postgresStore.ts';
export { createPostgresWebhookDeliveries } from './postgresDeliveries.ts';
export type { PostgresWebhooksOptions } from './postgresSchema.ts';
