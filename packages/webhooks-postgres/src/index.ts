export { createPostgresWebhookStore } from './postgresStore.ts';
export { createPostgresWebhookDeliveries } from './postgresDeliveries.ts';
