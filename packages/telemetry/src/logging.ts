/** pino: every log line written inside a span carries its `trace_id` and `span_id`. */
import { isSpanContextValid, trace } from '@opentelemetry/api';
import type { LoggerOptions } from 'pino';

function traceMixin(): { trace_id?: string; span_id?: string; trace_flags?: string } {
  const span = trace.getActiveSpan()?.spanContext();
  if (!span || !isSpanContextValid(span)) return {};
  return { trace_id: span.traceId, span_id: span.spanId, trace_flags: `0${span.traceFlags.toString(16)}`.slice(-2) };
}

/** The options with `traceMixin` added (after the caller's own mixin, if any). */
export function loggerOptions<T extends LoggerOptions>(options: T): T {
  const own = options.mixin;
  return {
    ...options,
    mixin: (merge: object, level: number, logger: Parameters<NonNullable<LoggerOptions['mixin']>>[2]) => ({ ...own?.(merge, level, logger), ...traceMixin() }),
  };
}
