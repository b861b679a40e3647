/** Distributed composition root of the label service: Kafka bus and MongoDB projections. */
import { loadReferenceData } from '@parcel-logistics/reference-data';
import { instrumentBus } from '@parcel-logistics/telemetry';
import { connectBus, connectProjections, runService, startServiceProcess } from '@parcel-logistics/wiring';
import { createLabelRenderer } from './index.ts';
import { createLabelService } from './renderingLabel/handler.ts';

const { telemetry, settings, distributed, log, metrics } = startServiceProcess('label');
const renderer = await createLabelRenderer({ ref: loadReferenceData(settings.referenceDir) });
const [kafka, projections] = await Promise.all([connectBus(distributed, log), connectProjections(distributed)]);
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
