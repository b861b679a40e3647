/** The composition roots' one set-up of the decorators: metered and traced bus, event store and projector. */
import { InMemorySpanExporter } from '@opentelemetry/sdk-trace';
import { createInProcessBus } from '@parcel-logistics/bus';
import { createSqliteEventStore } from '@parcel-logistics/eventstore-sqlite';
import { createMetrics, instrumentParcelStreams, PROJECTION_SPAN, startTelemetry } from './index.ts';
import type { Metrics, Telemetry } from './index.ts';

type Views = Parameters<typeof instrumentParcelStreams>[1]['views'];

const exporter = new InMemorySpanExporter();
let telemetry: Telemetry;
beforeAll(() => {
  telemetry = startTelemetry({ serviceName: 'instrument-test', exporter });
});
afterAll(() => telemetry.shutdown());

/** How many observations a histogram holds, over all its series. */
async function count(metrics: Metrics, name: string): Promise<number> {
  const values = (await metrics.registry.getSingleMetric(name)!.get()).values as {
    metricName?: string;
    value: number;
  }[];
  return values.filter((v) => v.metricName === `${name}_count`).reduce((n, v) => n + v.value, 0);
}

test('the bus and the event store are metered and traced, and the projector is traced', async () => {
  const metrics = createMetrics({ processMetrics: false });
  const noViews = { get: async () => null } as unknown as Views;
  const { bus, eventStore, projector } = instrumentParcelStreams(metrics, {
    bus: createInProcessBus(),
    system: 'in-process',
    eventStore: createSqliteEventStore({ file: ':memory:' }),
    views: noViews,
  });
  try {
    await bus.handleRequests('parcel.commands.test', async () => 'done');
    await bus.request('parcel.commands.test', { id: 'a', key: 'k', type: 'Test', payload: {} }, { timeoutMs: 1000 });
    await eventStore.append({
      streamName: 'parcel-PX1',
      expectedRevision: 'no_stream',
      events: [{ id: 'e', type: 'Test.v1', data: {}, metadata: {} }],
    });
    await projector.project('PX2');
  } finally {
    await bus.close();
    await eventStore.close();
  }

  expect(await count(metrics, 'parcel_bus_request_duration_seconds')).toBe(1);
  expect(await count(metrics, 'parcel_eventstore_append_duration_seconds')).toBe(1);
  const spans = exporter.getFinishedSpans();
  const names = spans.map((s) => s.name);
  expect(names).toEqual(expect.arrayContaining(['eventstore.append', PROJECTION_SPAN]));
  const busSpans = spans.filter((s) => s.attributes['messaging.system'] === 'in-process');
  expect(busSpans.length).toBeGreaterThan(0);
});
