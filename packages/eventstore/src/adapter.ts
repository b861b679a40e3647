/** What the event store adapters build on: the append rules, stored rows, commit groups, the calls the SQL stores answer alike, the catch-up subscription and the log reader its subscriptions share. */
export * from './appendRules.ts';
export * from './catchUpSubscription.ts';
export * from './eventRow.ts';
export * from './groupObserver.ts';
export * from './logReader.ts';
export * from './storeCalls.ts';
