/**
 * One create-order is one trace: the gateway's HTTP span, the command's producer and consumer spans
 * (linked through the message headers), the store append and the inline projection update, and the
 * asynchronous projector after them through the traceparent stored in the events' metadata.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { SpanKind } from '@opentelemetry/api';
import { InMemorySpanExporter } from '@opentelemetry/sdk-trace';
import type { ReadableSpan } from '@opentelemetry/sdk-trace';
import pino from 'pino';
import { parcelStreamName, Topics } from '@parcel-logistics/contracts';
import { startEmbedded } from '@parcel-logistics/embedded';
import type { EmbeddedStack } from '@parcel-logistics/embedded';
import { createSqliteEventStore } from '@parcel-logistics/eventstore-sqlite';
import { loggerOptions, PROJECTION_SPAN } from '@parcel-logistics/telemetry';
import { clientB, realTime } from './support/client.ts';
import { orderBody } from './support/orders.ts';
import { testSettings } from './support/stack.ts';

const exporter = new InMemorySpanExporter();
const logLines: Array<Record<string, unknown>> = [];
const log = pino(loggerOptions({ level: 'debug' }), {
  write: (line: string) => void logLines.push(JSON.parse(line) as Record<string, unknown>),
});
const dataDir = mkdtempSync(path.join(tmpdir(), 'parcel-tracing-'));
let stack: EmbeddedStack;
let stopped = false;

beforeAll(async () => {
  stack = await startEmbedded({ settings: testSettings(dataDir), log, spanExporter: exporter });
});
afterAll(async () => {
  if (!stopped) await stack.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

const CREATE_ORDER = 'HTTP POST /v1/openapi/order/create-order';
const spanId = (span: ReadableSpan) => span.spanContext().spanId;
const parentId = (span: ReadableSpan) => span.parentSpanContext?.spanId;

async function serverSpan(): Promise<ReadableSpan> {
  for (let waited = 0; waited < 5000; waited += 10) {
    const found = exporter.getFinishedSpans().find((s) => s.name === CREATE_ORDER);
    if (found) return found;
    await sleep(10);
  }
  throw new Error(`no span ${CREATE_ORDER}`);
}

test('a signed create-order is one trace: HTTP server → bus producer → order service consumer → append and projection update', async () => {
  const reply = await clientB(realTime(stack.url)).post('order/create-order', orderBody());
  expect(reply.body).toMatchObject({ code: 0, data: { wmg_tracking_num: expect.any(String) } });
  const trackingNumber = reply.body.data.wmg_tracking_num as string;
  const server = await serverSpan();
  await stack.caughtUp();

  const traceId = server.spanContext().traceId;
  const trace = exporter.getFinishedSpans().filter((s) => s.spanContext().traceId === traceId);
  const childrenOf = (parent: ReadableSpan, name: string, kind: SpanKind) =>
    trace.filter((s) => parentId(s) === spanId(parent) && s.name === name && s.kind === kind);
  const only = (spans: ReadableSpan[]) => {
    expect(spans).toHaveLength(1);
    return spans[0]!;
  };

  expect(server.kind).toBe(SpanKind.SERVER);
  expect(server.parentSpanContext).toBeUndefined();
  expect(server.attributes).toMatchObject({
    'http.request.method': 'POST',
    'http.route': '/v1/openapi/order/create-order',
    'http.response.status_code': 200,
    'parcel.client.id': 'demo',
  });

  const producer = only(childrenOf(server, `send ${Topics.orderCommands}`, SpanKind.PRODUCER));
  expect(producer.attributes).toMatchObject({
    'parcel.command.type': 'CreateOrder',
    'messaging.destination.name': Topics.orderCommands,
  });

  const consumer = only(childrenOf(producer, `process ${Topics.orderCommands}`, SpanKind.CONSUMER));
  expect(consumer.parentSpanContext?.isRemote).toBe(true);
  expect(consumer.attributes).toMatchObject({
    'parcel.command.type': 'CreateOrder',
    'messaging.destination.name': Topics.orderCommands,
    'messaging.message.id': producer.attributes['messaging.message.id'],
  });

  const append = only(childrenOf(consumer, 'eventstore.appendMany', SpanKind.CLIENT));
  expect(append.attributes['parcel.stream.name']).toContain(parcelStreamName(trackingNumber));
  expect(append.attributes['parcel.stream.revision']).toEqual([0, 0]);

  const projection = only(childrenOf(consumer, PROJECTION_SPAN, SpanKind.INTERNAL));
  expect(projection.attributes).toMatchObject({
    'parcel.tracking_number': trackingNumber,
    'parcel.stream.revision': 0,
  });

  // The tracking service's catch-up projector handles pages of many parcels: its span links to
  // this trace through the event's stored traceparent.
  const repair = exporter
    .getFinishedSpans()
    .find(
      (s) =>
        s.name === 'eventstore.subscription parcel-view' &&
        s.links.some((l) => l.context.traceId === traceId && l.context.spanId === spanId(producer)),
    );
  expect(repair?.kind).toBe(SpanKind.CONSUMER);
  const pageSpans = exporter
    .getFinishedSpans()
    .filter((s) => parentId(s) === spanId(repair!) && s.name === PROJECTION_SPAN);
  expect(pageSpans).toHaveLength(1);

  const accessLog = logLines.find((l) => l.msg === 'request' && l.route === '/v1/openapi/order/create-order');
  expect(accessLog).toMatchObject({ trace_id: traceId, span_id: spanId(server), status: 200, clientId: 'demo' });

  await stack.stop();
  stopped = true;
  const store = createSqliteEventStore({ file: path.join(dataDir, 'events.db'), writerThread: false });
  try {
    const events = await store.readStream(parcelStreamName(trackingNumber));
    expect(events.length).toBeGreaterThan(0);
    expect(events[0]!.metadata.traceparent).toBe(`00-${traceId}-${spanId(producer)}-01`);
  } finally {
    await store.close();
  }
});
