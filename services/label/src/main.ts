/** Distributed composition root of the label service: Kafka bus and MongoDB projections. */
import pino from 'pino';
import { loadSettings } from '@parcel/config';
import { loadReferenceData } from '@parcel/reference-data';
import { loggerOptions, startTelemetry, tracedBus } from '@parcel/telemetry';
import { connectBus, connectProjections, listeningPort, loadDistributedSettings, startHealthServer, stopOnSignals } from '@parcel/wiring';
import { createLabelRenderer } from './index.ts';
import { createLabelService } from './service.ts';

const telemetry = startTelemetry({ serviceName: 'parcel-label' });

const settings = loadSettings();
const distributed = loadDistributedSettings('label');
const log = pino(loggerOptions({ level: settings.logLevel, base: { service: 'label', instance: distributed.instanceId } }));
const renderer = await createLabelRenderer({ ref: loadReferenceData(settings.referenceDir) });
const [kafka, projections] = await Promise.all([connectBus(distributed, log), connectProjections(distributed)]);
const bus = tracedBus(kafka, 'kafka');
const service = createLabelService({ bus, views: projections.parcels, renderer });
await service.start();
const health = await startHealthServer(distributed.healthPort, settings.host, () => Promise.all([bus.ping(), projections.ping()]));
log.info({ healthPort: listeningPort(health) }, 'listening');
stopOnSignals(log, async () => {
  health.close();
  await service.stop();
  await bus.close();
  await projections.close();
  await telemetry.shutdown();
});
