/**
 * A SERVER span per HTTP request, named `HTTP <METHOD> <route>` once the router has matched one.
 * A caller's `traceparent` is honoured. The request and response emitters are bound to the span's
 * context, so code resumed by their events (the body parser's `end`) still runs inside it.
 */
import { context, propagation, ROOT_CONTEXT, SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import {
  ATTR_HTTP_REQUEST_METHOD,
  ATTR_HTTP_RESPONSE_STATUS_CODE,
  ATTR_HTTP_ROUTE,
  ATTR_PARCEL_CLIENT_ID,
  ATTR_URL_PATH,
} from './attributes.ts';
import { tracer } from './spans.ts';

export interface TracedHttpOptions {
  /** The authenticated client of a request, if any (read when the response is done). */
  clientId?: (res: Response) => string | undefined;
  /** Gets one `debug` line per request, written inside the request's span (so it carries the trace id). */
  log?: { debug(fields: object, message: string): void };
}

export function tracedHttp(options: TracedHttpOptions = {}): RequestHandler {
  return (req: Request, res: Response, next: NextFunction) => {
    const started = performance.now();
    const parent = propagation.extract(ROOT_CONTEXT, req.headers);
    const attributes = { [ATTR_HTTP_REQUEST_METHOD]: req.method, [ATTR_URL_PATH]: req.path };
    const span = tracer().startSpan(`HTTP ${req.method}`, { kind: SpanKind.SERVER, attributes }, parent);
    const active = trace.setSpan(parent, span);
    context.bind(active, req);
    context.bind(active, res);

    let ended = false;
    const end = () => {
      if (ended) return;
      ended = true;
      const route = req.route ? `${req.baseUrl}${String((req.route as { path: unknown }).path)}` : undefined;
      const status = res.headersSent ? res.statusCode : 0;
      if (route) {
        span.updateName(`HTTP ${req.method} ${route}`);
        span.setAttribute(ATTR_HTTP_ROUTE, route);
      }
      if (status) span.setAttribute(ATTR_HTTP_RESPONSE_STATUS_CODE, status);
      const clientId = options.clientId?.(res);
      if (clientId) span.setAttribute(ATTR_PARCEL_CLIENT_ID, clientId);
      const aborted = !res.writableFinished;
      if (status >= 500 || aborted)
        span.setStatus({
          code: SpanStatusCode.ERROR,
          ...(aborted ? { message: 'connection closed before the response was sent' } : {}),
        });
      options.log?.debug(
        { method: req.method, route: route ?? req.path, status, ms: Math.round(performance.now() - started), clientId },
        'request',
      );
      span.end();
    };
    res.once('finish', end);
    res.once('close', end);
    context.with(active, next);
  };
}
