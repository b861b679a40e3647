/** Distributed composition root of the order service: Kafka bus, event store, MongoDB projections, the LMX carrier over HTTP. */
import pino from 'pino';
import { createParcelProjector, randomIds } from '@parcel/application';
import { createLmxClient } from '@parcel/carriers';
import { loadSettings, SettingsError } from '@parcel/config';
import { systemClock } from '@parcel/domain';
import { loadReferenceData } from '@parcel/reference-data';
import { loggerOptions, startTelemetry, tracedBus, tracedEventStore, tracedProjector } from '@parcel/telemetry';
import { connectBus, connectEventStore, connectProjections, listeningPort, loadDistributedSettings, startHealthServer, stopOnSignals } from '@parcel/wiring';
import { createOrderService } from './index.ts';

const telemetry = startTelemetry({ serviceName: 'parcel-order' });

const settings = loadSettings();
const distributed = loadDistributedSettings('order');
if (!settings.carriers.lmxUrl) throw new SettingsError('PARCEL_LMX_URL is required by the order service');
const log = pino(loggerOptions({ level: settings.logLevel, base: { service: 'order', instance: distributed.instanceId } }));
const [kafka, store, projections] = await Promise.all([connectBus(distributed, log), connectEventStore(distributed, log), connectProjections(distributed)]);
const bus = tracedBus(kafka, 'kafka');
const eventStore = tracedEventStore(store);
const ref = loadReferenceData(settings.referenceDir);
const lmx = createLmxClient({ baseUrl: settings.carriers.lmxUrl });
const service = createOrderService({
  eventStore,
  projector: tracedProjector(createParcelProjector({ eventStore, views: projections.parcels })),
  views: projections.parcels,
  bus,
  ref,
  clock: systemClock,
  ids: randomIds,
  carriers: new Map([...ref.carriers.keys()].filter((code) => code.startsWith('LMX')).map((code) => [code, lmx])),
  registrationRetryDelayMs: settings.carriers.retryDelayMs,
  onProjectionError: (err) => log.error({ err }, 'inline projection failed; the subscription will repair it'),
});
await service.start();
const health = await startHealthServer(distributed.healthPort, settings.host, () => Promise.all([bus.ping(), eventStore.ping(), projections.ping()]));
log.info({ healthPort: listeningPort(health) }, 'listening');
stopOnSignals(log, async () => {
  health.close();
  await service.stop();
  await bus.close();
  await eventStore.close();
  await projections.close();
  await telemetry.shutdown();
});
