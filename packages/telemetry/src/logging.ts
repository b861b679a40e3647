/**
 * pino: every log line written inside a span carries its `trace_id` and `span_id`, and the fields
 * that hold secrets (webhook signing secrets, API keys, bearer tokens) are written as `[secret]`
 * wherever a logged object carries them, one or two levels down.
 */
import { isSpanContextValid, trace } from '@opentelemetry/api';
import type { LoggerOptions } from 'pino';

function traceMixin(): { trace_id?: string; span_id?: string; trace_flags?: string } {
  const span = trace.getActiveSpan()?.spanContext();
  if (!span || !isSpanContextValid(span)) return {};
  return { trace_id: span.traceId, span_id: span.spanId, trace_flags: `0${span.traceFlags.toString(16)}`.slice(-2) };
}

const SECRET_FIELDS = ['secret', 'secrets', 'apiKey', 'ApiKey', 'authorization', 'x-auth-token'];
/** fast-redact's paths: a name with a hyphen is written in brackets. */
const REDACTED = SECRET_FIELDS.flatMap((field) => {
  const key = /^\w+$/.test(field)
    ? (prefix: string) => `${prefix}${prefix ? '.' : ''}${field}`
    : (prefix: string) => `${prefix}["${field}"]`;
  return ['', '*', '*.*'].map(key);
});

/** The options with `traceMixin` added (after the caller's own mixin, if any) and secret fields redacted. */
export function loggerOptions<T extends LoggerOptions>(options: T): T {
  const own = options.mixin;
  return {
    redact: { paths: REDACTED, censor: '[secret]' },
    ...options,
    mixin: (merge: object, level: number, logger: Parameters<NonNullable<LoggerOptions['mixin']>>[2]) => ({
      ...own?.(merge, level, logger),
      ...traceMixin(),
    }),
  };
}
