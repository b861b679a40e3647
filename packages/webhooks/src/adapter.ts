/** What the webhook adapters build on: the tables' rows and their mapping to the port's values. */
export * from './rows.ts';
