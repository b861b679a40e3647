/** Distributed composition root of the tracking service: Kafka bus, event store, MongoDB projections. */
import { loadSettings } from '@parcel-logistics/config';
import { randomIds } from '@parcel-logistics/application';
import { systemClock } from '@parcel-logistics/domain';
import { loadReferenceData } from '@parcel-logistics/reference-data';
import { connectParcelStreams, startServiceProcess } from '@parcel-logistics/wiring';
import { createTrackingService } from './index.ts';

const settings = loadSettings(process.env, 'tracking');
const { log, metrics, run } = startServiceProcess('tracking', settings);
const streams = await connectParcelStreams(settings, log, metrics);
const { projections, bus, eventStore, projector } = streams;
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
await run(service, streams.ready, streams.resources);
