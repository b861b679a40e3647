/**
 * Distributed composition root of the webhook service: the event store's log (the fan-out
 * subscription, served by one instance at a time), the webhook endpoints and delivery queue on
 * PostgreSQL (shared by every instance through leases per endpoint), health on HEALTH_PORT.
 * Run as many instances as needed.
 */
import { loadSettings } from '@parcel-logistics/config';
import { systemClock } from '@parcel-logistics/domain';
import { instrumentEventStore } from '@parcel-logistics/telemetry';
import { connectAccounts, connectEventStore, connectWebhooks, startServiceProcess } from '@parcel-logistics/wiring';
import { createWebhookService } from './index.ts';

const settings = loadSettings(process.env, 'webhook');
const { distributed, log, metrics, run } = startServiceProcess('webhook', settings);
const [store, { endpoints, deliveries }, accounts] = await Promise.all([
  connectEventStore(settings, log, { onCommit: metrics.onCommit }),
  connectWebhooks(distributed),
  // Which accounts are disabled: their deliveries wait.
  connectAccounts(settings, log, { keys: false }),
]);
const eventStore = instrumentEventStore(store, metrics);
const service = createWebhookService({
  eventStore,
  endpoints,
  deliveries,
  // Real time: receivers check webhook-timestamp against their own clocks.
  clock: systemClock,
  log,
  config: settings.webhooks,
  owner: distributed.instanceId,
  paused: accounts.directory.isDisabled,
});
await run(service, () => Promise.all([eventStore.ping(), deliveries.ping()]), [
  eventStore,
  endpoints,
  deliveries,
  accounts,
]);
