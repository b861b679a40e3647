/** Distributed composition root of the tracking service: Kafka bus, event store, MongoDB projections. */
import pino from 'pino';
import { randomIds } from '@parcel-logistics/application';
import { loadSettings } from '@parcel-logistics/config';
import { systemClock } from '@parcel-logistics/domain';
import { loadReferenceData } from '@parcel-logistics/reference-data';
import { createMetrics, instrumentParcelStreams, loggerOptions, startTelemetry } from '@parcel-logistics/telemetry';
import { connectBus, connectEventStore, connectProjections, runService } from '@parcel-logistics/wiring';
import { createTrackingService } from './index.ts';

const telemetry = startTelemetry({ serviceName: 'parcel-tracking' });

const settings = loadSettings(process.env, 'tracking');
const { distributed } = settings;
const log = pino(
  loggerOptions({ level: settings.logLevel, base: { service: 'tracking', instance: distributed.instanceId } }),
);
const metrics = createMetrics();
const [kafka, store, projections] = await Promise.all([
  connectBus(distributed, log),
  connectEventStore(settings, log, { onCommit: metrics.onCommit }),
  connectProjections(distributed),
]);
const { bus, eventStore, projector } = instrumentParcelStreams(metrics, {
  bus: kafka,
  system: 'kafka',
  eventStore: store,
  views: projections.parcels,
});
const service = createTrackingService({
  eventStore,
  projector,
  views: projections.parcels,
  bus,
  ref: loadReferenceData(settings.referenceDir),
  clock: systemClock,
  ids: randomIds,
  renderTimeoutMs: settings.commandTimeoutMs,
  downstreamV1: settings.personalData.downstreamV1,
  onProjectionError: (err) => log.error({ err }, 'inline projection failed; the subscription will repair it'),
});
await runService({
  log,
  healthPort: distributed.healthPort,
  host: settings.host,
  service,
  ready: () => Promise.all([bus.ping(), eventStore.ping(), projections.ping()]),
  resources: [bus, eventStore, projections],
  telemetry,
  metrics,
});
