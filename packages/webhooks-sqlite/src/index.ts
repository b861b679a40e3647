export { createSqliteWebhookStore } from './sqlite.ts';
export { createSqliteWebhookDeliveries } from './sqliteDeliveries.ts';
