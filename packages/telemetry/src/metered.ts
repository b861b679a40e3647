/**
 * Decorators of the ports and an express middleware that feed `Metrics` (metrics.ts): the bus's
 * request and handling latency, the event store's append latency and its subscriptions' positions
 * (for the lag read on scrape), and the gateway's request durations by route.
 */
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { BusRemoteError, BusTimeoutError } from '@parcel-logistics/bus';
import type { Bus, Message } from '@parcel-logistics/bus';
import { DuplicateEventIdError, settingsOf, WrongExpectedRevisionError } from '@parcel-logistics/eventstore';
import type { CheckpointStore, EventStore, RecordedEvent, Subscription } from '@parcel-logistics/eventstore';
import { timed } from './metrics.ts';
import type { Metrics } from './metrics.ts';

const busOutcome = (error: unknown): string =>
  error instanceof BusTimeoutError ? 'timeout' : error instanceof BusRemoteError ? 'remote_error' : 'error';

/** `parcel_bus_request_duration_seconds` where requests are sent, `parcel_bus_handle_duration_seconds` where they are handled. */
export function meteredBus(bus: Bus, metrics: Metrics): Bus {
  const { busRequestDuration, busHandleDuration } = metrics;
  return {
    request: <TReply>(topic: string, message: Message, options: { timeoutMs: number }) =>
      timed(busRequestDuration, { topic }, busOutcome, () => bus.request<TReply>(topic, message, options)),
    handleRequests: (topic, handler) =>
      bus.handleRequests(topic, (message) =>
        timed(
          busHandleDuration,
          { topic },
          () => 'error',
          () => handler(message),
        ),
      ),
    publish: (topic, message) => bus.publish(topic, message),
    subscribe: (topic, group, handler) => bus.subscribe(topic, group, handler),
    ping: () => bus.ping(),
    close: () => bus.close(),
  };
}

const appendOutcome = (error: unknown): string =>
  error instanceof WrongExpectedRevisionError
    ? 'wrong_expected_revision'
    : error instanceof DuplicateEventIdError
      ? 'duplicate_event_id'
      : 'error';

/**
 * `parcel_eventstore_append_duration_seconds`, and the store as a source of
 * `parcel_eventstore_subscription_lag_events`: for each subscription opened through this decorator,
 * the head less the furthest of the position it last handled here and its stored checkpoint (the
 * latter is all a process standing by for a subscription that another process serves has). The
 * head and the checkpoints are read with `store.progress` when scraped, a subscription's own
 * checkpoint store (`SubscriptionSettings.checkpoints`) read instead of the store's where it has
 * one; a store without `progress` reports no lag.
 */
export function meteredEventStore(store: EventStore, metrics: Metrics): EventStore {
  const { appendDuration } = metrics;
  /** Open subscriptions per id (a test may open one id twice), and the last position handled per id. */
  const open = new Map<string, number>();
  const handled = new Map<string, number>();
  /** The checkpoint stores of the subscriptions that keep theirs outside the event store, per id. */
  const own = new Map<string, CheckpointStore>();
  const removeSource = metrics.addLagSource(async () => {
    if (!store.progress) return { head: 0, lags: new Map() };
    const ids = [...open.keys()];
    const { head, checkpoints } = await store.progress(ids);
    const stored = async (id: string) => (await own.get(id)?.load(id)) ?? checkpoints.get(id) ?? 0;
    const lags = new Map(
      await Promise.all(
        ids.map(async (id) => [id, Math.max(0, head - Math.max(handled.get(id) ?? 0, await stored(id)))] as const),
      ),
    );
    return { head, lags };
  });

  const track = (id: string, subscription: Subscription): Subscription => {
    open.set(id, (open.get(id) ?? 0) + 1);
    let stopped = false;
    return {
      caughtUp: () => subscription.caughtUp(),
      async stop() {
        await subscription.stop();
        if (stopped) return;
        stopped = true;
        const left = (open.get(id) ?? 1) - 1;
        if (left > 0) open.set(id, left);
        else {
          open.delete(id);
          handled.delete(id);
          own.delete(id);
        }
      },
    };
  };

  return {
    append: (request) => timed(appendDuration, { operation: 'append' }, appendOutcome, () => store.append(request)),
    appendMany: (requests) =>
      timed(appendDuration, { operation: 'appendMany' }, appendOutcome, () => store.appendMany(requests)),
    readStream: (streamName, options) => store.readStream(streamName, options),
    readAll: (options) => store.readAll(options),
    subscribeToAll: (options) => {
      const settings = settingsOf(options);
      const id = settings.subscriptionId;
      if (settings.checkpoints) own.set(id, settings.checkpoints);
      const reached = (event: RecordedEvent | undefined): void => {
        if (event && event.globalPosition > (handled.get(id) ?? 0)) handled.set(id, event.globalPosition);
      };
      if (options.handleBatch) {
        const { handleBatch } = options;
        return track(
          id,
          store.subscribeToAll({
            ...settings,
            handleBatch: (events) => handleBatch(events).then(() => reached(events.at(-1))),
          }),
        );
      }
      const { handler } = options;
      return track(
        id,
        store.subscribeToAll({ ...settings, handler: (event) => handler(event).then(() => reached(event)) }),
      );
    },
    ...(store.progress ? { progress: store.progress.bind(store) } : {}),
    ping: () => store.ping(),
    close: async () => {
      removeSource();
      await store.close();
    },
  };
}

export interface MeteredHttpOptions {
  /**
   * The route templates of the app (the operation registry's `method` and `path`): a request
   * answered before the router matched it (a body the parser refused) is counted under its route
   * when its path is one of them, else under `unmatched`.
   */
  routes?: readonly { method: string; path: string }[];
}

const METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']);

/** Express 5 path templates (`/carrier-events/:carrierCode`) as patterns. */
function routeMatcher(
  routes: readonly { method: string; path: string }[],
): (method: string, path: string) => string | undefined {
  const compiled = routes.map(({ method, path }) => ({
    method: method.toUpperCase(),
    path,
    pattern: new RegExp(
      `^${path
        .split('/')
        .map((part) => (part.startsWith(':') ? '[^/]+' : part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))
        .join('/')}/?$`,
    ),
  }));
  return (method, path) => compiled.find((route) => route.method === method && route.pattern.test(path))?.path;
}

/**
 * `parcel_http_request_duration_seconds` by route template (never the raw path, so numbers in
 * paths make no new series), method and status class (`2xx` … `5xx`, `aborted` when the client
 * went away before the answer was sent). Placed beside `tracedHttp`: routes mounted before the
 * app's middleware (health, the reference, /metrics itself) are not counted.
 */
export function meteredHttp(metrics: Metrics, options: MeteredHttpOptions = {}): RequestHandler {
  const { httpRequestDuration } = metrics;
  const fallback = routeMatcher(options.routes ?? []);
  return (req: Request, res: Response, next: NextFunction) => {
    const started = performance.now();
    let ended = false;
    const end = (): void => {
      if (ended) return;
      ended = true;
      const method = METHODS.has(req.method) ? req.method : 'OTHER';
      const route = req.route
        ? `${req.baseUrl}${String((req.route as { path: unknown }).path)}`
        : (fallback(method, req.path) ?? 'unmatched');
      const statusClass = res.writableFinished && res.headersSent ? `${Math.floor(res.statusCode / 100)}xx` : 'aborted';
      httpRequestDuration.observe({ route, method, status_class: statusClass }, (performance.now() - started) / 1000);
    };
    res.once('finish', end);
    res.once('close', end);
    next();
  };
}
