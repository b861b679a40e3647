/** Distributed composition root of the label service: Kafka bus and MongoDB projections. */
import pino from 'pino';
import { loadSettings } from '@parcel-logistics/config';
import { loadReferenceData } from '@parcel-logistics/reference-data';
import { createMetrics, instrumentBus, loggerOptions, startTelemetry } from '@parcel-logistics/telemetry';
import { connectBus, connectProjections, runService } from '@parcel-logistics/wiring';
import { createLabelRenderer } from './index.ts';
import { createLabelService } from './renderingLabel/handler.ts';

const telemetry = startTelemetry({ serviceName: 'parcel-label' });

const settings = loadSettings(process.env, 'label');
const { distributed } = settings;
const log = pino(
  loggerOptions({ level: settings.logLevel, base: { service: 'label', instance: distributed.instanceId } }),
);
const renderer = await createLabelRenderer({ ref: loadReferenceData(settings.referenceDir) });
const [kafka, projections] = await Promise.all([connectBus(distributed, log), connectProjections(distributed)]);
const metrics = createMetrics();
const bus = instrumentBus(kafka, metrics, 'kafka');
const service = createLabelService({ bus, views: projections.parcels, renderer });
await runService({
  log,
  healthPort: distributed.healthPort,
  host: settings.host,
  service,
  ready: () => Promise.all([bus.ping(), projections.ping()]),
  resources: [bus, projections],
  telemetry,
  metrics,
});
