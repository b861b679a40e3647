/**
 * The EventStore port with spans: appends always, stream reads only inside a traced operation
 * (the subscriptions' polling would otherwise start a trace every few hundred milliseconds), and
 * every event a subscription handles in a CONSUMER span parented by the trace its metadata names;
 * a page handled at once (`handleBatch`) in one CONSUMER span linked to each event's trace.
 */
import { context, ROOT_CONTEXT, SpanKind, trace } from '@opentelemetry/api';
import type { Attributes, Link, Span } from '@opentelemetry/api';
import { subscribeWrapped } from '@parcel-logistics/eventstore';
import type { AppendRequest, EventStore, RecordedEvent } from '@parcel-logistics/eventstore';
import {
  ATTR_PARCEL_EVENT_COUNT,
  ATTR_PARCEL_EVENT_ID,
  ATTR_PARCEL_EVENT_TYPE,
  ATTR_PARCEL_LOG_POSITION,
  ATTR_PARCEL_STREAM_EXPECTED_REVISION,
  ATTR_PARCEL_STREAM_NAME,
  ATTR_PARCEL_STREAM_REVISION,
  ATTR_PARCEL_SUBSCRIPTION_ID,
} from './attributes.ts';
import { inSpan, parentFrom, traceHeaders } from './spans.ts';

const TRACE_KEYS = ['traceparent', 'tracestate'] as const;

/**
 * Events appended without a `traceparent` in their metadata get the append span's, so whatever
 * handles them later (projection repair, carrier registration, the downstream topic) joins the trace.
 */
function withTraceContext(request: AppendRequest, span: Span): AppendRequest {
  const headers = traceHeaders(span);
  if (!headers.traceparent) return request;
  const stamp: Record<string, string> = {};
  for (const key of TRACE_KEYS) if (headers[key]) stamp[key] = headers[key];
  const events = request.events.map((e) =>
    e.metadata?.traceparent === undefined ? { ...e, metadata: { ...e.metadata, ...stamp } } : e,
  );
  return { ...request, events };
}

const eventCount = (requests: readonly AppendRequest[]) => requests.reduce((n, r) => n + r.events.length, 0);

export function tracedEventStore(store: EventStore): EventStore {
  return {
    append: (request) =>
      inSpan(
        'eventstore.append',
        { kind: SpanKind.CLIENT, attributes: () => appendAttributes([request]) },
        async (span) => {
          const result = await store.append(withTraceContext(request, span));
          span.setAttribute(ATTR_PARCEL_STREAM_REVISION, result.nextExpectedRevision);
          return result;
        },
      ),
    appendMany: (requests) =>
      inSpan(
        'eventstore.appendMany',
        { kind: SpanKind.CLIENT, attributes: () => appendAttributes(requests) },
        async (span) => {
          const results = await store.appendMany(requests.map((r) => withTraceContext(r, span)));
          span.setAttribute(
            ATTR_PARCEL_STREAM_REVISION,
            results.map((r) => r.nextExpectedRevision),
          );
          return results;
        },
      ),
    readStream: (streamName, options) => {
      if (!trace.getSpan(context.active())) return store.readStream(streamName, options);
      return inSpan(
        'eventstore.readStream',
        { kind: SpanKind.CLIENT, attributes: { [ATTR_PARCEL_STREAM_NAME]: streamName } },
        async (span) => {
          const events = await store.readStream(streamName, options);
          span.setAttribute(ATTR_PARCEL_EVENT_COUNT, events.length);
          return events;
        },
      );
    },
    readAll: (options) => store.readAll(options),
    subscribeToAll: (options) =>
      subscribeWrapped(store, options, {
        handler: (handler) => (event) => handled(options.subscriptionId, event, () => handler(event)),
        handleBatch: (handleBatch) => (events) =>
          handledPage(options.subscriptionId, events, () => handleBatch(events)),
      }),
    ...(store.progress ? { progress: store.progress.bind(store) } : {}),
    ping: () => store.ping(),
    close: () => store.close(),
  };
}

function appendAttributes(requests: readonly AppendRequest[]): Attributes {
  const one = requests.length === 1 ? requests[0] : undefined;
  return {
    [ATTR_PARCEL_STREAM_NAME]: one ? one.streamName : requests.map((r) => r.streamName),
    [ATTR_PARCEL_STREAM_EXPECTED_REVISION]: one
      ? String(one.expectedRevision)
      : requests.map((r) => String(r.expectedRevision)),
    [ATTR_PARCEL_EVENT_COUNT]: eventCount(requests),
  };
}

function handled(subscriptionId: string, event: RecordedEvent, handle: () => Promise<void>): Promise<void> {
  const attributes = (): Attributes => ({
    [ATTR_PARCEL_SUBSCRIPTION_ID]: subscriptionId,
    [ATTR_PARCEL_STREAM_NAME]: event.streamName,
    [ATTR_PARCEL_STREAM_REVISION]: event.revision,
    [ATTR_PARCEL_EVENT_TYPE]: event.type,
    [ATTR_PARCEL_EVENT_ID]: event.id,
    [ATTR_PARCEL_LOG_POSITION]: event.globalPosition,
  });
  return inSpan(
    `eventstore.subscription ${subscriptionId}`,
    { kind: SpanKind.CONSUMER, attributes, parent: parentFrom(event.metadata) },
    handle,
  );
}

/** A page of a `handleBatch` subscription: events of many traces, so links rather than a parent. */
function handledPage(
  subscriptionId: string,
  events: readonly RecordedEvent[],
  handle: () => Promise<void>,
): Promise<void> {
  // Each event's trace context is read only for a span that is made (something exports).
  const links = (): Link[] => {
    const found: Link[] = [];
    for (const event of events) {
      const linked = trace.getSpanContext(parentFrom(event.metadata));
      if (linked)
        found.push({
          context: linked,
          attributes: { [ATTR_PARCEL_EVENT_ID]: event.id, [ATTR_PARCEL_STREAM_NAME]: event.streamName },
        });
    }
    return found;
  };
  const attributes = (): Attributes => ({
    [ATTR_PARCEL_SUBSCRIPTION_ID]: subscriptionId,
    [ATTR_PARCEL_EVENT_COUNT]: events.length,
    [ATTR_PARCEL_LOG_POSITION]: [events[0]?.globalPosition ?? 0, events.at(-1)?.globalPosition ?? 0],
  });
  return inSpan(
    `eventstore.subscription ${subscriptionId}`,
    { kind: SpanKind.CONSUMER, attributes, parent: ROOT_CONTEXT, links },
    handle,
  );
}
