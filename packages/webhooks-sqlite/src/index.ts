export { createSqliteWebhookStore } from './sqlite.ts';
