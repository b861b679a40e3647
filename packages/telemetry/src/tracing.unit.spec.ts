import { context, propagation, SpanKind, trace } from '@opentelemetry/api';
import { InMemorySpanExporter } from '@opentelemetry/sdk-trace';
import type { ReadableSpan } from '@opentelemetry/sdk-trace';
import { createInProcessBus } from '@parcel-logistics/bus';
import type { Message } from '@parcel-logistics/bus';
import { createSqliteEventStore } from '@parcel-logistics/eventstore-sqlite';
import type { RecordedEvent } from '@parcel-logistics/eventstore';
import type { LoggerOptions } from 'pino';
import { loggerOptions, otlpTracesUrl, startTelemetry, tracedBus, tracedEventStore } from './index.ts';
import type { Telemetry } from './index.ts';

const exporter = new InMemorySpanExporter();
let telemetry: Telemetry;
beforeAll(() => {
  telemetry = startTelemetry({ serviceName: 'telemetry-test', exporter });
});
afterAll(() => telemetry.shutdown());
beforeEach(() => exporter.reset());

const spanNamed = (name: string): ReadableSpan => {
  const found = exporter.getFinishedSpans().filter((s) => s.name === name);
  expect(found).toHaveLength(1);
  return found[0]!;
};
const parentOf = (span: ReadableSpan) => span.parentSpanContext?.spanId;
const traceparentOf = (span: ReadableSpan) => `00-${span.spanContext().traceId}-${span.spanContext().spanId}-01`;

describe('tracedBus', () => {
  test("publish injects the producer span into the headers, keeping the caller's; the subscriber's span is its child through them", async () => {
    const inner = createInProcessBus();
    const bus = tracedBus(inner, 'in-process');
    const received = Promise.withResolvers<Message>();
    await bus.subscribe('parcel.events.v1', 'test-group', async (message) => {
      received.resolve({
        ...message,
        headers: { ...message.headers, seenTraceId: trace.getActiveSpan()!.spanContext().traceId },
      });
    });

    await trace.getTracer('test').startActiveSpan('caller', async (caller) => {
      await bus.publish('parcel.events.v1', {
        id: 'e-1',
        key: 'PX1',
        type: 'ParcelRegistered.v1',
        payload: {},
        headers: { 'event-type': 'ParcelRegistered.v1' },
      });
      caller.end();
    });
    const message = await received.promise;
    await inner.idle();
    await bus.close();

    const caller = spanNamed('caller');
    const producer = spanNamed('send parcel.events.v1');
    const consumer = spanNamed('process parcel.events.v1');
    expect(producer.kind).toBe(SpanKind.PRODUCER);
    expect(parentOf(producer)).toBe(caller.spanContext().spanId);
    expect(message.headers).toMatchObject({
      'event-type': 'ParcelRegistered.v1',
      traceparent: traceparentOf(producer),
    });
    expect(consumer.kind).toBe(SpanKind.CONSUMER);
    expect(parentOf(consumer)).toBe(producer.spanContext().spanId);
    expect(consumer.parentSpanContext?.isRemote).toBe(true);
    expect(consumer.spanContext().traceId).toBe(caller.spanContext().traceId);
    expect(message.headers!.seenTraceId).toBe(caller.spanContext().traceId);
    expect(consumer.attributes).toMatchObject({
      'messaging.system': 'in-process',
      'messaging.destination.name': 'parcel.events.v1',
      'messaging.message.id': 'e-1',
      'messaging.consumer.group.name': 'test-group',
      'parcel.event.type': 'ParcelRegistered.v1',
    });
  });

  test("request/reply: the handler runs in a consumer span of the requester's producer span; a throw marks both as failed", async () => {
    const inner = createInProcessBus();
    const bus = tracedBus(inner, 'in-process');
    await bus.handleRequests('parcel.commands.order', async (message) => {
      if (message.type === 'Fail') throw new Error('refused');
      return { ok: true, deadline: message.headers?.['x-deadline'] };
    });

    const reply = await bus.request(
      'parcel.commands.order',
      { id: 'c-1', key: 'k', type: 'CreateOrder', payload: {}, headers: { 'x-deadline': '42' } },
      { timeoutMs: 2000 },
    );
    expect(reply).toEqual({ ok: true, deadline: '42' });
    const producer = spanNamed('send parcel.commands.order');
    const consumer = spanNamed('process parcel.commands.order');
    expect(parentOf(producer)).toBeUndefined();
    expect(parentOf(consumer)).toBe(producer.spanContext().spanId);
    expect(consumer.attributes).toMatchObject({
      'parcel.command.type': 'CreateOrder',
      'messaging.message.id': 'c-1',
      'messaging.operation.type': 'process',
    });

    exporter.reset();
    await expect(
      bus.request('parcel.commands.order', { id: 'c-2', key: 'k', type: 'Fail', payload: {} }, { timeoutMs: 2000 }),
    ).rejects.toThrow('refused');
    expect(spanNamed('process parcel.commands.order').status.code).toBe(2);
    expect(spanNamed('send parcel.commands.order').status.code).toBe(2);
    await bus.close();
  });

  test('a consumer takes its parent from the headers only, not from whatever context delivered the message', async () => {
    const inner = createInProcessBus();
    const bus = tracedBus(inner, 'in-process');
    const done = Promise.withResolvers<void>();
    await bus.subscribe('t', 'g', async () => done.resolve());
    const remote = '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01';
    await trace.getTracer('test').startActiveSpan('unrelated', async (span) => {
      await inner.publish('t', { id: 'm', key: 'k', type: 'X', payload: {}, headers: { traceparent: remote } });
      span.end();
    });
    await done.promise;
    await inner.idle();
    const consumer = spanNamed('process t');
    expect(consumer.spanContext().traceId).toBe('0af7651916cd43dd8448eb211c80319c');
    expect(parentOf(consumer)).toBe('b7ad6b7169203331');
    await bus.close();
  });
});

describe('tracedEventStore', () => {
  test('append: a span with the stream and revision, the trace context stamped into metadata that lacks one, subscriptions parented by it', async () => {
    const store = tracedEventStore(createSqliteEventStore({ file: ':memory:' }));
    const kept = '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01';
    await store.append({
      streamName: 'parcel-PX1',
      expectedRevision: 'no_stream',
      events: [
        { id: 'a', type: 'ParcelRegistered.v1', data: {}, metadata: { commandId: 'c' } },
        { id: 'b', type: 'LabelGenerated.v1', data: {}, metadata: { traceparent: kept } },
      ],
    });
    const append = spanNamed('eventstore.append');
    expect(append.kind).toBe(SpanKind.CLIENT);
    expect(append.attributes).toMatchObject({
      'parcel.stream.name': 'parcel-PX1',
      'parcel.stream.revision': 1,
      'parcel.event.count': 2,
      'parcel.stream.expected_revision': 'no_stream',
    });

    const [a, b] = await store.readStream('parcel-PX1');
    expect(a!.metadata).toEqual({ commandId: 'c', traceparent: traceparentOf(append) });
    expect(b!.metadata).toEqual({ traceparent: kept });
    expect(exporter.getFinishedSpans().map((s) => s.name)).not.toContain('eventstore.readStream');

    const handled: RecordedEvent[] = [];
    const subscription = store.subscribeToAll({
      subscriptionId: 'test-sub',
      handler: async (e) => void handled.push(e),
      pollIntervalMs: 10,
    });
    await subscription.caughtUp();
    await subscription.stop();
    const subs = exporter.getFinishedSpans().filter((s) => s.name === 'eventstore.subscription test-sub');
    expect(subs.map(parentOf)).toEqual([append.spanContext().spanId, 'b7ad6b7169203331']);
    expect(subs[0]!.attributes).toMatchObject({
      'parcel.subscription.id': 'test-sub',
      'parcel.stream.revision': 0,
      'parcel.event.type': 'ParcelRegistered.v1',
    });
    await store.close();
  });
});

describe('logs and configuration', () => {
  test("the mixin adds the active span's trace and span ids, and nothing outside a span", () => {
    const options: LoggerOptions = { level: 'info', mixin: () => ({ own: 1 }) };
    const { mixin } = loggerOptions(options);
    const call = (m: typeof mixin) => m!({}, 30, undefined as never);
    expect(call(mixin)).toEqual({ own: 1 });
    trace.getTracer('test').startActiveSpan('logging', (span) => {
      expect(call(mixin)).toEqual({
        own: 1,
        trace_id: span.spanContext().traceId,
        span_id: span.spanContext().spanId,
        trace_flags: '01',
      });
      span.end();
    });
  });

  test('the OTLP endpoint comes from the environment; without one nothing is exported', () => {
    expect(otlpTracesUrl({})).toBeUndefined();
    expect(otlpTracesUrl({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://jaeger:4318/' })).toBe('http://jaeger:4318/v1/traces');
    expect(
      otlpTracesUrl({
        OTEL_EXPORTER_OTLP_ENDPOINT: 'http://a:4318',
        OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'http://b:4318/traces',
      }),
    ).toBe('http://b:4318/traces');
  });

  test('W3C trace context is the registered propagator; OTEL_SDK_DISABLED=true registers nothing', async () => {
    const carrier: Record<string, string> = {};
    trace.getTracer('test').startActiveSpan('p', (span) => {
      propagation.inject(context.active(), carrier);
      span.end();
    });
    expect(carrier.traceparent).toMatch(/^00-[0-9a-f]{32}-[0-9a-f]{16}-01$/);

    await telemetry.shutdown();
    process.env.OTEL_SDK_DISABLED = 'true';
    try {
      const disabled = startTelemetry({ serviceName: 'off', exporter });
      trace.getTracer('test').startActiveSpan('never', (span) => {
        expect(span.spanContext().traceId).toBe('00000000000000000000000000000000');
        span.end();
      });
      await disabled.shutdown();
    } finally {
      delete process.env.OTEL_SDK_DISABLED;
    }
  });

  test('OTEL_SERVICE_NAME names the service instead of the code', async () => {
    await telemetry.shutdown();
    const fresh = new InMemorySpanExporter();
    process.env.OTEL_SERVICE_NAME = 'renamed';
    try {
      telemetry = startTelemetry({ serviceName: 'telemetry-test', exporter: fresh });
    } finally {
      delete process.env.OTEL_SERVICE_NAME;
    }
    trace.getTracer('test').startSpan('named').end();
    expect(fresh.getFinishedSpans()[0]!.resource.attributes['service.name']).toBe('renamed');
  });

  test('without an exporter or an OTLP endpoint spans record nothing but still carry trace ids and propagate', async () => {
    await telemetry.shutdown();
    const saved = { a: process.env.OTEL_EXPORTER_OTLP_ENDPOINT, b: process.env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT };
    delete process.env.OTEL_EXPORTER_OTLP_ENDPOINT;
    delete process.env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT;
    try {
      telemetry = startTelemetry({ serviceName: 'quiet' });
    } finally {
      if (saved.a !== undefined) process.env.OTEL_EXPORTER_OTLP_ENDPOINT = saved.a;
      if (saved.b !== undefined) process.env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT = saved.b;
    }
    const carrier: Record<string, string> = {};
    trace.getTracer('test').startActiveSpan('quiet', (span) => {
      expect(span.isRecording()).toBe(false);
      expect(span.spanContext().traceId).toMatch(/^(?!0{32})[0-9a-f]{32}$/);
      propagation.inject(context.active(), carrier);
      span.end();
    });
    expect(carrier.traceparent).toMatch(/^00-[0-9a-f]{32}-[0-9a-f]{16}-00$/);
    // A caller that sampled its trace is still honoured: its child spans record.
    const sampled = propagation.extract(context.active(), {
      traceparent: '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01',
    });
    const child = trace.getTracer('test').startSpan('child', {}, sampled);
    expect(child.isRecording()).toBe(true);
    child.end();
    await telemetry.shutdown();
    telemetry = startTelemetry({ serviceName: 'telemetry-test', exporter });
  });
});
