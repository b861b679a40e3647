/** Helpers shared by the decorators: they need `@opentelemetry/api` only, never the SDK. */
import { context, INVALID_SPAN_CONTEXT, propagation, ROOT_CONTEXT, SpanStatusCode, trace } from '@opentelemetry/api';
import type { Attributes, Context, Link, Span, SpanKind } from '@opentelemetry/api';
import { ATTR_ERROR_TYPE } from './attributes.ts';

const TRACER_NAME = '@parcel-logistics/telemetry';

/** Looked up per call: a tracer provider registered (or replaced) after a decorator was built still counts. */
export const tracer = () => trace.getTracer(TRACER_NAME);

/**
 * Whether a span can reach anyone: startTelemetry sets it when spans are exported. Without, the
 * decorators make no spans of their own (a span costs its ids, its sampling, its context switch
 * and its attributes even when it records nothing): the caller's context, with the request's
 * trace id, passes through as it is, to the logs, the bus headers and the stored metadata.
 */
let exporting = false;
export const setExporting = (on: boolean): void => {
  exporting = on;
};

/** Stands for "no span of our own": injects the parent's trace context, or nothing. */
const passThrough = trace.wrapSpanContext(INVALID_SPAN_CONTEXT);

/** A span's attributes or links, or what computes them: called only when the span is made (something exports). */
export type Lazy<T> = T | (() => T);
const made = <T extends object>(value: Lazy<T> | undefined): T | undefined =>
  typeof value === 'function' ? value() : value;

/**
 * Runs `fn` in a new active span that ends when it settles; a throw marks the span as failed and
 * is rethrown. While nothing exports, `fn` runs in `parent` and gets the parent's span (and
 * attributes and links given as functions are never computed).
 */
export function inSpan<T>(
  name: string,
  options: { kind: SpanKind; attributes?: Lazy<Attributes>; parent?: Context; links?: Lazy<Link[]> },
  fn: (span: Span) => Promise<T>,
): Promise<T> {
  const active = context.active();
  const parent = options.parent ?? active;
  // Entering the context that is already active would only copy the async context frame.
  if (!exporting)
    return parent !== active
      ? context.with(parent, () => fn(trace.getSpan(parent) ?? passThrough))
      : fn(trace.getSpan(parent) ?? passThrough);
  const attributes = made(options.attributes);
  const links = made(options.links);
  const spanOptions = {
    kind: options.kind,
    ...(attributes ? { attributes } : {}),
    ...(links?.length ? { links } : {}),
  };
  return tracer().startActiveSpan(name, spanOptions, parent, async (span) => {
    try {
      return await fn(span);
    } catch (error) {
      failed(span, error);
      throw error;
    } finally {
      span.end();
    }
  });
}

function failed(span: Span, error: unknown): void {
  const err = error instanceof Error ? error : new Error(String(error));
  span.recordException(err);
  span.setAttribute(ATTR_ERROR_TYPE, err.name);
  span.setStatus({ code: SpanStatusCode.ERROR, message: err.message });
}

/** `traceparent` (and `tracestate`) of the span, as W3C trace-context headers. */
export function traceHeaders(span: Span): Record<string, string> {
  const carrier: Record<string, string> = {};
  propagation.inject(trace.setSpan(context.active(), span), carrier);
  return carrier;
}

/** The remote parent named by trace-context headers (a new root when there are none). */
export function parentFrom(headers: Record<string, unknown> | undefined): Context {
  const carrier: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers ?? {})) if (typeof value === 'string') carrier[name] = value;
  return propagation.extract(ROOT_CONTEXT, carrier);
}
