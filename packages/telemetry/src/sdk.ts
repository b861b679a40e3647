/**
 * The SDK half, for composition roots only: a tracer provider with W3C trace-context (and baggage)
 * propagation and an AsyncLocalStorage context manager, exporting over OTLP/HTTP when an endpoint
 * is configured. Without one nothing would ever read a span, so none is recorded: a request's server
 * span is non-recording (a sampler that records nothing), which still gives it a trace id for the
 * logs, the Kafka headers and the stored metadata, and the decorators of the bus, the event store
 * and the projector make no spans of their own (spans.ts `setExporting`): the cost of recording
 * was about a quarter of the embedded stack's CPU per create-order, and that of the non-recording
 * spans themselves still showed in its profile.
 */
import { context, propagation, trace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { CompositePropagator, W3CBaggagePropagator, W3CTraceContextPropagator } from '@opentelemetry/core';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { defaultResource, detectResources, envDetector, resourceFromAttributes } from '@opentelemetry/resources';
import {
  AlwaysOffSampler,
  BatchSpanProcessor,
  ParentBasedSampler,
  SimpleSpanProcessor,
  TracerProvider,
} from '@opentelemetry/sdk-trace';
import type { SpanExporter, SpanProcessor } from '@opentelemetry/sdk-trace';
import { ATTR_SERVICE_NAME } from './attributes.ts';
import { setExporting } from './spans.ts';

export interface TelemetryOptions {
  /** `service.name` unless OTEL_SERVICE_NAME says otherwise. */
  serviceName: string;
  /** Takes the place of the OTLP exporter; every span is handed to it as it ends (tests pass an in-memory one). */
  exporter?: SpanExporter;
}

export interface Telemetry {
  /** Exports what is pending. */
  flush(): Promise<void>;
  /** Flushes, stops exporting and unregisters what this call registered. Safe to call twice. */
  shutdown(): Promise<void>;
}

const nothing: Telemetry = { flush: async () => {}, shutdown: async () => {} };

/** OTEL_EXPORTER_OTLP_TRACES_ENDPOINT as is, or OTEL_EXPORTER_OTLP_ENDPOINT with the signal's path. */
export function otlpTracesUrl(env: NodeJS.ProcessEnv = process.env): string | undefined {
  const traces = env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT?.trim();
  if (traces) return traces;
  const base = env.OTEL_EXPORTER_OTLP_ENDPOINT?.trim();
  return base ? `${base.replace(/\/+$/, '')}/v1/traces` : undefined;
}

export function startTelemetry(options: TelemetryOptions): Telemetry {
  const env = process.env;
  if (env.OTEL_SDK_DISABLED?.trim().toLowerCase() === 'true') return nothing;

  const spanProcessors: SpanProcessor[] = [];
  const url = otlpTracesUrl(env);
  if (options.exporter) spanProcessors.push(new SimpleSpanProcessor({ exporter: options.exporter }));
  else if (url) spanProcessors.push(new BatchSpanProcessor({ exporter: new OTLPTraceExporter({ url }) }));

  const resource = defaultResource()
    .merge(resourceFromAttributes({ [ATTR_SERVICE_NAME]: options.serviceName }))
    // OTEL_RESOURCE_ATTRIBUTES and OTEL_SERVICE_NAME win over the code's choice.
    .merge(detectResources({ detectors: [envDetector] }));
  // Nothing exports: record nothing, but keep ids and propagation (a sampled parent still records).
  const sampler =
    spanProcessors.length === 0 ? { sampler: new ParentBasedSampler({ root: new AlwaysOffSampler() }) } : {};
  const provider = new TracerProvider({ resource, spanProcessors, ...sampler });
  const contextManager = new AsyncLocalStorageContextManager().enable();
  const propagator = new CompositePropagator({
    propagators: [new W3CTraceContextPropagator(), new W3CBaggagePropagator()],
  });

  // A second telemetry in one process (two embedded stacks in a test) finds the globals taken: it
  // leaves them to the first and only shuts down its own provider.
  const owns = {
    context: context.setGlobalContextManager(contextManager),
    trace: trace.setGlobalTracerProvider(provider),
    propagation: propagation.setGlobalPropagator(propagator),
  };
  if (!owns.context) contextManager.disable();
  if (owns.trace) setExporting(spanProcessors.length > 0);

  let stopped: Promise<void> | undefined;
  return {
    flush: () => provider.forceFlush(),
    shutdown: () =>
      (stopped ??= provider.shutdown().finally(() => {
        if (owns.trace) {
          trace.disable();
          setExporting(false);
        }
        if (owns.propagation) propagation.disable();
        if (owns.context) context.disable();
      })),
  };
}
