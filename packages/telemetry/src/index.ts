export * from './attributes.ts';
export { tracedBus } from './bus.ts';
export { tracedEventStore } from './eventStore.ts';
export { inCurrentContext, tracedHttp, type TracedHttpOptions } from './http.ts';
export { instrumentBus, instrumentEventStore, instrumentParcelStreams } from './instrument.ts';
export { loggerOptions } from './logging.ts';
export { PROJECTION_SPAN, tracedProjector } from './projector.ts';
export { otlpTracesUrl, startTelemetry, type Telemetry, type TelemetryOptions } from './sdk.ts';
export type { SpanExporter } from '@opentelemetry/sdk-trace';
export { meteredBus, meteredEventStore, meteredHttp, type MeteredHttpOptions } from './metered.ts';
export {
  createMetrics,
  gaugeOnScrape,
  watchRegistrationBacklog,
  type LagReading,
  type LagSource,
  type Metrics,
  type MetricsOptions,
  type MetricsText,
} from './metrics.ts';
