/**
 * Metrics on the distributed tier: each process's GET /metrics (the gateway's on its HTTP
 * port, order, tracking and label on their health port, the sandbox on its own) answers Prometheus
 * text with its own metrics: the gateway's requests by route and its bus requests, the order
 * processes' command handling, appends and registration backlog, tracking's subscription lag, the
 * label process's renders, the sandbox's shipments.
 */
import { clientB, realTime } from '../support/client.ts';
import type { Target } from '../support/client.ts';
import { eventually, registeredParcel } from '../support/carriers.ts';
import { scrape } from '../support/metrics.ts';
import type { Scrape } from '../support/metrics.ts';
import { Cluster } from './support/cluster.ts';
import type { ServiceName } from './support/cluster.ts';

jest.setTimeout(120_000);
const N = 4;
const cluster = new Cluster();
let gateway: Target;
beforeAll(async () => {
  // Two order processes: one serves the registration subscription, the other stands by.
  await cluster.startAll({ gateways: 1, orders: 2 });
  gateway = realTime(cluster.gateways[0]!);
}, 240_000);
afterAll(() => cluster.stop(), 60_000);

const scrapeAll = (name: ServiceName): Promise<Scrape[]> => Promise.all(cluster.of(name).map((p) => scrape(p.url)));
const sum = (scrapes: Scrape[], read: (s: Scrape) => number) => scrapes.reduce((n, s) => n + read(s), 0);

test('every process answers /metrics with its own metrics', async () => {
  const parcels = [];
  for (let i = 0; i < N; i++) parcels.push(await registeredParcel(gateway));
  const zpl = await clientB(gateway).get('order-shipping-label/get-shipping-label-zpl', {
    tracking_num: parcels[0]!.tn,
  });
  expect(zpl.body.code).toBe(0);

  const [gw] = await scrapeAll('gateway');
  const http = 'parcel_http_request_duration_seconds';
  expect(
    gw!.histogramCount(http, { route: '/v1/openapi/order/create-order', method: 'POST', status_class: '2xx' }),
  ).toBe(N);
  expect(
    gw!.histogramCount(http, { route: '/v1/openapi/order/query-status', method: 'GET', status_class: '2xx' }),
  ).toBeGreaterThanOrEqual(N);
  expect(
    gw!.histogramCount('parcel_bus_request_duration_seconds', { topic: 'parcel.commands.order', outcome: 'ok' }),
  ).toBe(N);
  expect(
    gw!.histogramCount('parcel_bus_request_duration_seconds', { topic: 'parcel.commands.label', outcome: 'ok' }),
  ).toBe(1);
  // The gateway holds no event store: no append, no lag.
  expect(gw!.histogramCount('parcel_eventstore_append_duration_seconds')).toBe(0);
  expect(gw!.samples('parcel_eventstore_subscription_lag_events')).toEqual([]);

  const orders = await scrapeAll('order');
  expect(orders).toHaveLength(2);
  // The commands went to either order process, each handled once.
  expect(
    sum(orders, (s) =>
      s.histogramCount('parcel_bus_handle_duration_seconds', { topic: 'parcel.commands.order', outcome: 'ok' }),
    ),
  ).toBe(N);
  expect(
    sum(orders, (s) => s.histogramCount('parcel_eventstore_append_duration_seconds', { outcome: 'ok' })),
  ).toBeGreaterThanOrEqual(2 * N);
  expect(sum(orders, (s) => s.histogramCount('parcel_eventstore_commit_group_size'))).toBeGreaterThan(0);
  // Every parcel is registered: the backlog is 0 in both, the standby reading the holder's checkpoint.
  await eventually(async () => {
    const now = await scrapeAll('order');
    expect(now.map((s) => s.value('parcel_carrier_registration_backlog_events'))).toEqual([0, 0]);
    expect(
      now.map((s) => s.value('parcel_eventstore_subscription_lag_events', { subscription: 'carrier-registration' })),
    ).toEqual([0, 0]);
  }, 30_000);

  await eventually(async () => {
    const [tracking] = await scrapeAll('tracking');
    expect(tracking!.value('parcel_eventstore_subscription_lag_events', { subscription: 'parcel-view' })).toBe(0);
    expect(
      tracking!.value('parcel_eventstore_subscription_lag_events', { subscription: 'parcel-events-publisher' }),
    ).toBe(0);
    expect(tracking!.value('parcel_eventstore_head_position')).toBeGreaterThanOrEqual(3 * N);
    // Tracking serves no order commands and holds no registration.
    expect(tracking!.samples('parcel_carrier_registration_backlog_events')).toEqual([]);
    expect(tracking!.histogramCount('parcel_bus_handle_duration_seconds', { topic: 'parcel.commands.order' })).toBe(0);
  }, 30_000);

  const [label] = await scrapeAll('label');
  expect(
    label!.histogramCount('parcel_bus_handle_duration_seconds', { topic: 'parcel.commands.label', outcome: 'ok' }),
  ).toBe(1);
  expect(label!.samples('parcel_eventstore_subscription_lag_events')).toEqual([]);

  const [sandbox] = await scrapeAll('carrier-sandbox');
  expect(sandbox!.value('parcel_sandbox_shipments')).toBeGreaterThanOrEqual(N);

  for (const s of [gw!, ...orders, label!, sandbox!]) {
    expect(s.families.get('process_cpu_seconds_total')?.type).toBe('COUNTER');
    expect(s.value('parcel_eventloop_busy_seconds_total')).toBeGreaterThan(0);
  }
});

test('/metrics of a process without an HTTP API is on its health port, beside /healthz', async () => {
  for (const name of ['order', 'tracking', 'label'] as const) {
    const [proc] = cluster.of(name);
    expect((await fetch(`${proc!.url}/healthz`)).status).toBe(200);
    const res = await fetch(`${proc!.url}/metrics`);
    expect({ name, status: res.status, type: res.headers.get('content-type') }).toEqual({
      name,
      status: 200,
      type: 'text/plain; version=0.0.4; charset=utf-8',
    });
  }
});
