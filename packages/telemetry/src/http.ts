/**
 * A SERVER span per HTTP request, named `HTTP <METHOD> <route>` once the router has matched one.
 * A caller's `traceparent` is honoured. The middleware after it runs inside the span's context.
 * The request and response emitters are not bound to that context: binding wraps every listener
 * of both, Node's own included, at a cost on every event. Middleware that resumes the request
 * from one of their events brings the context along itself (`inCurrentContext`, as the gateway's
 * body reader does), and the request's log line is written inside the span here.
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

/**
 * `fn`, to run in the context active now (a request's span) whoever calls it: for middleware that
 * resumes the request from one of its emitters' events, which come in the connection's context.
 */
export const inCurrentContext = <A extends unknown[], R>(fn: (...args: A) => R): ((...args: A) => R) =>
  context.bind(context.active(), fn);

export function tracedHttp(options: TracedHttpOptions = {}): RequestHandler {
  return (req: Request, res: Response, next: NextFunction) => {
    const started = performance.now();
    const parent = propagation.extract(ROOT_CONTEXT, req.headers);
    const attributes = { [ATTR_HTTP_REQUEST_METHOD]: req.method, [ATTR_URL_PATH]: req.path };
    const span = tracer().startSpan(`HTTP ${req.method}`, { kind: SpanKind.SERVER, attributes }, parent);
    const active = trace.setSpan(parent, span);

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
      const { log } = options;
      const ms = Math.round(performance.now() - started);
      if (log)
        context.with(active, () =>
          log.debug({ method: req.method, route: route ?? req.path, status, ms, clientId }, 'request'),
        );
      span.end();
    };
    res.once('finish', end);
    res.once('close', end);
    context.with(active, next);
  };
}
