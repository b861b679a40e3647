/** Distributed composition root of the label service: Kafka bus and MongoDB projections. */
import { loadSettings } from '@parcel-logistics/config';
import { loadReferenceData } from '@parcel-logistics/reference-data';
import { instrumentBus } from '@parcel-logistics/telemetry';
import { connectBus, connectProjections, startServiceProcess } from '@parcel-logistics/wiring';
import { createLabelRenderer } from './index.ts';
import { createLabelService } from './renderingLabel/handler.ts';

const settings = loadSettings(process.env, 'label');
const { distributed, log, metrics, run } = startServiceProcess('label', settings);
const renderer = await createLabelRenderer({ ref: loadReferenceData(settings.referenceDir) });
const [kafka, projections] = await Promise.all([connectBus(distributed, log), connectProjections(distributed, log)]);
const bus = instrumentBus(kafka, metrics, 'kafka');
const service = createLabelService({ bus, views: projections.parcels, renderer });
await run(service, () => Promise.all([bus.ping(), projections.ping()]), [bus, projections]);
