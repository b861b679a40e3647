/** Distributed composition root of the order service: Kafka bus, event store, MongoDB projections, the LMX carrier over HTTP. */
import { keyedIds, personalDataShredder, randomIds } from '@parcel-logistics/application';
import { createLmxClient, lmxCarrierClients } from '@parcel-logistics/carriers';
import { loadSettings, SettingsError } from '@parcel-logistics/config';
import { systemClock } from '@parcel-logistics/domain';
import { loadReferenceData } from '@parcel-logistics/reference-data';
import { watchRegistrationBacklog } from '@parcel-logistics/telemetry';
import { connectAccounts, connectParcelStreams, startServiceProcess } from '@parcel-logistics/wiring';
import { createOrderService, REGISTRATION_SUBSCRIPTION, retentionSettingsOf } from './index.ts';

const settings = loadSettings(process.env, 'order');
const { log, metrics, run } = startServiceProcess('order', settings);
if (!settings.carriers.lmxUrl) throw new SettingsError('PARCEL_LMX_URL is required by the order service');
watchRegistrationBacklog(metrics, REGISTRATION_SUBSCRIPTION);
const [streams, accounts] = await Promise.all([
  connectParcelStreams(settings, log, metrics, { sealFormerEvents: true }),
  // The accounts' own retention, for the sweep.
  connectAccounts(settings, log, { keys: false }),
]);
const { store, projections, bus, eventStore, projector } = streams;
const ref = loadReferenceData(settings.referenceDir);
const lmx = createLmxClient({ baseUrl: settings.carriers.lmxUrl });
const service = createOrderService({
  eventStore,
  projector,
  views: projections.parcels,
  manifests: projections.manifests,
  bus,
  ref,
  clock: systemClock,
  // New parcels' keys made ahead, many in one write of the key store.
  ids: keyedIds(randomIds, store.keys, {
    onError: (err) => log.warn({ err }, 'keys made ahead failed; made per order'),
  }),
  carriers: lmxCarrierClients(ref, lmx),
  personalData: personalDataShredder(store, projections),
  idempotency: projections.idempotency,
  registrationRetryDelayMs: settings.carriers.retryDelayMs,
  onProjectionError: (err) => log.error({ err }, 'inline projection failed; the subscription will repair it'),
  retention: retentionSettingsOf(settings.personalData),
  accountRetention: accounts.directory.retentionDays,
  onRetentionSweep: (sweep) => log.info(sweep, 'retention sweep done'),
  onRetentionError: (err, trackingNumber) =>
    log.error({ err, trackingNumber }, 'retention sweep failed; the next sweep tries again'),
});
await run(service, streams.ready, [accounts, ...streams.resources]);
