/**
 * What every distributed service process starts with (its main.ts): tracing, its settings, its
 * logger and its metrics; and, for the services on the parcel streams (order, tracking), the bus,
 * the event store and the views, instrumented.
 */
import pino from 'pino';
import type { Logger } from 'pino';
import { createMetrics, instrumentParcelStreams, loggerOptions, startTelemetry } from '@parcel-logistics/telemetry';
import type { Metrics } from '@parcel-logistics/telemetry';
import { connectBus, connectEventStore, connectProjections, type ServiceSettings } from './distributed.ts';
import { runService } from './process.ts';

/**
 * Tracing as `parcel-<service>`, a logger naming the service and its instance, and metrics, on the
 * settings its main.ts loaded; `run` starts the service with health (and metrics) on HEALTH_PORT
 * until a signal stops it, closing `resources` then.
 */
export function startServiceProcess(service: string, settings: ServiceSettings) {
  const telemetry = startTelemetry({ serviceName: `parcel-${service}` });
  const { distributed } = settings;
  const log = pino(loggerOptions({ level: settings.logLevel, base: { service, instance: distributed.instanceId } }));
  const metrics = createMetrics();
  const run = (
    started: { start(): Promise<void>; stop(): Promise<void> },
    ready: () => Promise<unknown>,
    resources: { close(): Promise<void> }[],
  ) =>
    runService({
      log,
      healthPort: distributed.healthPort,
      host: settings.host,
      service: started,
      ready,
      resources,
      telemetry,
      metrics,
    });
  return { telemetry, distributed, log, metrics, run };
}

/**
 * The bus, the event store (its commits counted; `sealFormerEvents` as connectEventStore) and the
 * views, connected at once; the bus and the event store instrumented, and the parcel projector on them.
 */
export async function connectParcelStreams(
  settings: ServiceSettings,
  log: Logger,
  metrics: Metrics,
  options: { sealFormerEvents?: boolean } = {},
) {
  const [kafka, store, projections] = await Promise.all([
    connectBus(settings.distributed, log),
    connectEventStore(settings, log, { onCommit: metrics.onCommit, ...options }),
    connectProjections(settings.distributed, log),
  ]);
  const streams = instrumentParcelStreams(metrics, {
    bus: kafka,
    system: 'kafka',
    eventStore: store,
    views: projections.parcels,
  });
  return {
    store,
    projections,
    ...streams,
    ready: () => Promise.all([streams.bus.ping(), streams.eventStore.ping(), projections.ping()]),
    resources: [streams.bus, streams.eventStore, projections],
  };
}
