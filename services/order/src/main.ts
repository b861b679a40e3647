/** Distributed composition root of the order service: Kafka bus, event store, MongoDB projections, the LMX carrier over HTTP. */
import pino from 'pino';
import { keyedIds, personalDataShredder, randomIds } from '@parcel-logistics/application';
import { createLmxClient, lmxCarrierClients } from '@parcel-logistics/carriers';
import { loadSettings, SettingsError } from '@parcel-logistics/config';
import { systemClock } from '@parcel-logistics/domain';
import { loadReferenceData } from '@parcel-logistics/reference-data';
import {
  createMetrics,
  instrumentParcelStreams,
  loggerOptions,
  startTelemetry,
  watchRegistrationBacklog,
} from '@parcel-logistics/telemetry';
import {
  connectAccounts,
  connectBus,
  connectEventStore,
  connectProjections,
  runService,
} from '@parcel-logistics/wiring';
import { createOrderService, REGISTRATION_SUBSCRIPTION, retentionSettingsOf } from './index.ts';

const telemetry = startTelemetry({ serviceName: 'parcel-order' });

const settings = loadSettings(process.env, 'order');
const { distributed } = settings;
if (!settings.carriers.lmxUrl) throw new SettingsError('PARCEL_LMX_URL is required by the order service');
const log = pino(
  loggerOptions({ level: settings.logLevel, base: { service: 'order', instance: distributed.instanceId } }),
);
const metrics = createMetrics();
watchRegistrationBacklog(metrics, REGISTRATION_SUBSCRIPTION);
const [kafka, store, projections, accounts] = await Promise.all([
  connectBus(distributed, log),
  connectEventStore(settings, log, { onCommit: metrics.onCommit, sealFormerEvents: true }),
  connectProjections(distributed),
  // The accounts' own retention, for the sweep.
  connectAccounts(settings, log, { keys: false }),
]);
const { bus, eventStore, projector } = instrumentParcelStreams(metrics, {
  bus: kafka,
  system: 'kafka',
  eventStore: store,
  views: projections.parcels,
});
const ref = loadReferenceData(settings.referenceDir);
const lmx = createLmxClient({ baseUrl: settings.carriers.lmxUrl });
const service = createOrderService({
  eventStore,
  projector,
  views: projections.parcels,
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
await runService({
  log,
  healthPort: distributed.healthPort,
  host: settings.host,
  service,
  ready: () => Promise.all([bus.ping(), eventStore.ping(), projections.ping()]),
  resources: [accounts, bus, eventStore, projections],
  telemetry,
  metrics,
});
