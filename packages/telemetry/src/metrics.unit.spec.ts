import express from 'express';
import type { Server } from 'node:http';
import { createInProcessBus } from '@parcel-logistics/bus';
import { WrongExpectedRevisionError } from '@parcel-logistics/eventstore';
import { createSqliteEventStore } from '@parcel-logistics/eventstore-sqlite';
import type { EventStore, LogProgress, RecordedEvent, SubscribeToAllOptions } from '@parcel-logistics/eventstore';
import {
  createMetrics,
  meteredBus,
  meteredEventStore,
  meteredHttp,
  tracedEventStore,
  watchRegistrationBacklog,
} from './index.ts';
import type { Metrics } from './index.ts';

/** The samples of one metric, as prom-client reports them. */
async function samples(
  metrics: Metrics,
  name: string,
): Promise<{ metricName?: string; labels: Record<string, string | number>; value: number }[]> {
  const metric = metrics.registry.getSingleMetric(name);
  if (!metric) throw new Error(`no metric ${name}`);
  return (await metric.get()).values as {
    metricName?: string;
    labels: Record<string, string | number>;
    value: number;
  }[];
}

/** `<name>_count` of a histogram for these labels (0 when there is no such series). */
async function countOf(metrics: Metrics, name: string, labels: Record<string, string>): Promise<number> {
  const found = (await samples(metrics, name)).find(
    (s) => s.metricName === `${name}_count` && Object.entries(labels).every(([k, v]) => s.labels[k] === v),
  );
  return found?.value ?? 0;
}

/** Each `[labels, count]`: the `<name>_count` of a histogram for those labels, named so a failure says which. */
async function expectCounts(metrics: Metrics, name: string, expected: [Record<string, string>, number][]) {
  for (const [labels, count] of expected)
    expect({ labels, count: await countOf(metrics, name, labels) }).toEqual({ labels, count });
}

const message = (id: string) => ({ id, key: 'k', type: 'Test', payload: {} });

describe('meteredBus', () => {
  test('requests by topic and outcome (ok, remote_error, timeout), and the handling side by topic', async () => {
    const metrics = createMetrics({ processMetrics: false });
    const bus = meteredBus(createInProcessBus(), metrics);
    await bus.handleRequests('parcel.commands.test', async (m) => {
      if (m.id === 'fail') throw new Error('refused');
      return 'done';
    });
    try {
      expect(await bus.request('parcel.commands.test', message('a'), { timeoutMs: 1000 })).toBe('done');
      expect(await bus.request('parcel.commands.test', message('b'), { timeoutMs: 1000 })).toBe('done');
      await expect(bus.request('parcel.commands.test', message('fail'), { timeoutMs: 1000 })).rejects.toThrow(
        'refused',
      );
      await expect(bus.request('parcel.commands.nobody', message('c'), { timeoutMs: 20 })).rejects.toThrow(/no reply/);
    } finally {
      await bus.close();
    }
    await expectCounts(metrics, 'parcel_bus_request_duration_seconds', [
      [{ topic: 'parcel.commands.test', outcome: 'ok' }, 2],
      [{ topic: 'parcel.commands.test', outcome: 'remote_error' }, 1],
      [{ topic: 'parcel.commands.nobody', outcome: 'timeout' }, 1],
    ]);
    await expectCounts(metrics, 'parcel_bus_handle_duration_seconds', [
      [{ topic: 'parcel.commands.test', outcome: 'ok' }, 2],
      [{ topic: 'parcel.commands.test', outcome: 'error' }, 1],
    ]);
    const timeout = (await samples(metrics, 'parcel_bus_request_duration_seconds')).find(
      (s) => s.metricName === 'parcel_bus_request_duration_seconds_sum' && s.labels.outcome === 'timeout',
    );
    expect(timeout!.value).toBeGreaterThanOrEqual(0.015);
  });
});

describe('meteredEventStore', () => {
  const appendTo = (store: EventStore, stream: string, expectedRevision: 'no_stream' | 'any' = 'any') =>
    store.append({
      streamName: stream,
      expectedRevision,
      events: [{ id: crypto.randomUUID(), type: 'Tested.v1', data: {} }],
    });

  test('append latency by operation and outcome, commit groups through the onCommit hook, and the lag of a caught-up subscription is 0', async () => {
    const metrics = createMetrics({ processMetrics: false });
    const store = tracedEventStore(
      meteredEventStore(createSqliteEventStore({ file: ':memory:', onCommit: metrics.onCommit }), metrics),
    );
    try {
      await Promise.all([
        appendTo(store, 's-1', 'no_stream'),
        appendTo(store, 's-2', 'no_stream'),
        appendTo(store, 's-3', 'no_stream'),
      ]);
      await expect(appendTo(store, 's-1', 'no_stream')).rejects.toBeInstanceOf(WrongExpectedRevisionError);
      await store.appendMany([
        {
          streamName: 's-4',
          expectedRevision: 'no_stream',
          events: [{ id: crypto.randomUUID(), type: 'Tested.v1', data: {} }],
        },
      ]);
      await expectCounts(metrics, 'parcel_eventstore_append_duration_seconds', [
        [{ operation: 'append', outcome: 'ok' }, 3],
        [{ operation: 'append', outcome: 'wrong_expected_revision' }, 1],
        [{ operation: 'appendMany', outcome: 'ok' }, 1],
      ]);
      const groups = await samples(metrics, 'parcel_eventstore_commit_group_size');
      expect(groups.find((s) => s.metricName === 'parcel_eventstore_commit_group_size_sum')!.value).toBe(5);
      // The three concurrent appends went in one group.
      expect(groups.find((s) => s.metricName === 'parcel_eventstore_commit_group_size_count')!.value).toBe(3);

      const seen: RecordedEvent[] = [];
      const subscription = store.subscribeToAll({
        subscriptionId: 'view',
        pollIntervalMs: 20,
        handler: async (e) => void seen.push(e),
      });
      await subscription.caughtUp();
      expect(await samples(metrics, 'parcel_eventstore_subscription_lag_events')).toEqual([
        { labels: { subscription: 'view' }, value: 0 },
      ]);
      expect((await samples(metrics, 'parcel_eventstore_head_position'))[0]!.value).toBe(4);
      await subscription.stop();
      // A stopped subscription is no longer reported.
      expect(await samples(metrics, 'parcel_eventstore_subscription_lag_events')).toEqual([]);
    } finally {
      await store.close();
    }
  });

  /** A store whose head and checkpoints the test sets, and whose subscription delivers what the test hands it. */
  function fakeStore(progress: LogProgress) {
    let deliver: ((event: RecordedEvent) => Promise<void>) | undefined;
    const store: EventStore = {
      append: () => Promise.reject(new Error('unused')),
      appendMany: () => Promise.reject(new Error('unused')),
      readStream: async () => [],
      readAll: async () => [],
      subscribeToAll: (options: SubscribeToAllOptions) => {
        deliver = options.handler;
        return { caughtUp: async () => undefined, stop: async () => undefined };
      },
      progress: async (ids) => ({
        head: progress.head,
        checkpoints: new Map([...progress.checkpoints].filter(([id]) => ids.includes(id))),
      }),
      ping: async () => undefined,
      close: async () => undefined,
    };
    const event = (globalPosition: number): RecordedEvent => ({
      id: `e${globalPosition}`,
      streamName: 's',
      type: 'T',
      revision: 0,
      globalPosition,
      data: {},
      metadata: {},
      recordedAt: '',
    });
    return { store, handle: (position: number) => deliver!(event(position)) };
  }

  test('lag: the head less the furthest of the stored checkpoint and the position handled here; the registration backlog is that of its subscription', async () => {
    const metrics = createMetrics({ processMetrics: false });
    watchRegistrationBacklog(metrics, 'carrier-registration');
    const progress = { head: 10, checkpoints: new Map([['carrier-registration', 4]]) };
    const fake = fakeStore(progress);
    const store = meteredEventStore(fake.store, metrics);
    expect(await samples(metrics, 'parcel_carrier_registration_backlog_events')).toEqual([]);
    store.subscribeToAll({ subscriptionId: 'carrier-registration', handler: async () => undefined });
    expect(await samples(metrics, 'parcel_eventstore_subscription_lag_events')).toEqual([
      { labels: { subscription: 'carrier-registration' }, value: 6 },
    ]);
    expect(await samples(metrics, 'parcel_carrier_registration_backlog_events')).toEqual([{ labels: {}, value: 6 }]);
    await fake.handle(7); // handled here, not yet saved
    expect(await samples(metrics, 'parcel_carrier_registration_backlog_events')).toEqual([{ labels: {}, value: 3 }]);
    progress.head = 12;
    progress.checkpoints.set('carrier-registration', 9); // the holder (another process) moved on
    expect(await samples(metrics, 'parcel_eventstore_subscription_lag_events')).toEqual([
      { labels: { subscription: 'carrier-registration' }, value: 3 },
    ]);
  });

  test('lag: a subscription that keeps its checkpoint in a store of its own is measured from that one, not the event store checkpoint', async () => {
    const metrics = createMetrics({ processMetrics: false });
    // The event store holds a checkpoint of that id from before it kept its own: stale.
    const fake = fakeStore({ head: 20, checkpoints: new Map([['parcel-view', 2]]) });
    const kept = new Map<string, number>();
    const checkpoints = { load: async (id: string) => kept.get(id), save: async () => undefined };
    meteredEventStore(fake.store, metrics).subscribeToAll({
      subscriptionId: 'parcel-view',
      checkpoints,
      handler: async () => undefined,
    });
    // Nothing kept of its own yet: the event store's, as the subscription itself starts from.
    expect(await samples(metrics, 'parcel_eventstore_subscription_lag_events')).toEqual([
      { labels: { subscription: 'parcel-view' }, value: 18 },
    ]);
    kept.set('parcel-view', 17); // the process serving it moved on
    expect(await samples(metrics, 'parcel_eventstore_subscription_lag_events')).toEqual([
      { labels: { subscription: 'parcel-view' }, value: 3 },
    ]);
  });

  test('a store that cannot be read is left out of the scrape, which still succeeds', async () => {
    const metrics = createMetrics({ processMetrics: false });
    const fake = fakeStore({ head: 1, checkpoints: new Map() });
    fake.store.progress = () => Promise.reject(new Error('store down'));
    meteredEventStore(fake.store, metrics).subscribeToAll({ subscriptionId: 'view', handler: async () => undefined });
    const text = await metrics.render();
    expect(text).toContain('# TYPE parcel_eventstore_subscription_lag_events gauge');
    expect(text).not.toContain('parcel_eventstore_subscription_lag_events{');
    expect(text).not.toMatch(/^parcel_eventstore_head_position /m);
  });
});

describe('meteredHttp', () => {
  test('by route template, method and status class; a refused body counts under its route, an unknown path as unmatched', async () => {
    const metrics = createMetrics({ processMetrics: false });
    const app = express();
    app.use(meteredHttp(metrics, { routes: [{ method: 'post', path: '/orders/:id' }] }));
    app.use((req, res, next) => (req.headers['x-refuse'] ? res.status(400).send('refused') : next()));
    app.post('/orders/:id', (_req, res) => void res.send('ok'));
    app.use((_req, res) => void res.status(404).send('none'));
    const server = await new Promise<Server>((resolve) => {
      const s = app.listen(0, '127.0.0.1', () => resolve(s));
    });
    const url = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
    try {
      await fetch(`${url}/orders/1`, { method: 'POST' });
      await fetch(`${url}/orders/2`, { method: 'POST' });
      await fetch(`${url}/orders/3`, { method: 'POST', headers: { 'x-refuse': '1' } });
      await fetch(`${url}/nowhere/4`);
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
    const name = 'parcel_http_request_duration_seconds';
    await expectCounts(metrics, name, [
      [{ route: '/orders/:id', method: 'POST', status_class: '2xx' }, 2],
      [{ route: '/orders/:id', method: 'POST', status_class: '4xx' }, 1],
      [{ route: 'unmatched', method: 'GET', status_class: '4xx' }, 1],
    ]);
    expect((await samples(metrics, name)).some((s) => String(s.labels.route).includes('/orders/1'))).toBe(false);
  });
});

describe('render', () => {
  test("Prometheus text of our metrics and, once per process, prom-client's process metrics", async () => {
    const metrics = createMetrics();
    const other = createMetrics();
    metrics.onCommit(3);
    const text = await metrics.render();
    expect(metrics.contentType).toBe('text/plain; version=0.0.4; charset=utf-8');
    expect(text).toMatch(/^# HELP parcel_http_request_duration_seconds /m);
    expect(text).toMatch(/^parcel_eventstore_commit_group_size_bucket\{le="4"\} 1$/m);
    expect(text).toMatch(/^process_cpu_seconds_total \d/m);
    expect(text).toMatch(/^nodejs_eventloop_lag_seconds /m);
    expect(text).toMatch(/^# TYPE parcel_eventloop_busy_seconds_total counter$/m);
    // One registration of the process metrics, rendered by every Metrics of the process.
    expect((await other.render()).match(/^# TYPE process_cpu_seconds_total/gm)).toHaveLength(1);
    expect(await createMetrics({ processMetrics: false }).render()).not.toContain('process_cpu_seconds_total');
  });
});

describe('parcel_eventloop_busy_seconds_total', () => {
  const busySeconds = async (metrics: ReturnType<typeof createMetrics>) =>
    Number(/^parcel_eventloop_busy_seconds_total (\S+)$/m.exec(await metrics.render())![1]);

  test('grows by the time the loop spends in callbacks, not by the time it waits', async () => {
    const metrics = createMetrics();
    const before = await busySeconds(metrics);
    // 60 ms of work in one callback: all of it counts.
    const until = performance.now() + 60;
    while (performance.now() < until);
    const afterWork = await busySeconds(metrics);
    expect(afterWork - before).toBeGreaterThanOrEqual(0.06);
    // 200 ms with nothing to run: the loop waits, and the counter grows by far less than that.
    const waitStart = performance.now();
    await new Promise((resolve) => setTimeout(resolve, 200));
    const afterWait = await busySeconds(metrics);
    const waitedS = (performance.now() - waitStart) / 1000;
    expect(afterWait).toBeGreaterThanOrEqual(afterWork);
    expect(afterWait - afterWork).toBeLessThan(waitedS / 2);
  });
});
