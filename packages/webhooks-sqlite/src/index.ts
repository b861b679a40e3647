export { createSqliteWebhookStore } from './sqlite.ts';
export { createSqliteWebhookDeliveries, rewriteSqliteDeliveryBodies } from './sqliteDeliveries.ts';
