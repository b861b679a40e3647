/**
 * GET /metrics of the embedded process (its gateway serves the one registry of
 * the process), read by an independent parser after create-orders: the request histogram by route
 * template, the bus, the event store's appends and commit groups, and the subscriptions' lag, 0
 * once every subscription has caught up.
 */
import { clientB, raw } from './support/client.ts';
import { parseScrape, scrape } from './support/metrics.ts';
import { orderBody } from './support/orders.ts';
import { startTestStack } from './support/stack.ts';
import type { TestStack } from './support/stack.ts';

const N = 6;
const CREATE_ORDER = '/v1/openapi/order/create-order';
let stack: TestStack;
beforeAll(async () => {
  stack = await startTestStack();
});
afterAll(() => stack.destroy());

test(`after ${N} create-orders, /metrics shows them by route, the store's appends and commit groups, and no lag once caught up`, async () => {
  const before = await scrape(stack.url);
  expect(before.histogramCount('parcel_http_request_duration_seconds', { route: CREATE_ORDER })).toBe(0);

  const created = await Promise.all(
    Array.from({ length: N }, () => clientB(stack).post('order/create-order', orderBody())),
  );
  expect(created.map((r) => r.body.code)).toEqual(Array(N).fill(0));
  // A body the parser refuses, before the router: counted under its route, as a 4xx.
  expect(
    (
      await raw(`${stack.url}${CREATE_ORDER}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{',
      })
    ).status,
  ).toBe(400);
  expect((await raw(`${stack.url}/v1/openapi/order/PX${Date.now()}`, {})).status).toBe(404);
  // The registrations append after the orders; the second round lets the views handle those.
  await stack.caughtUp();
  await stack.caughtUp();

  const metrics = await scrape(stack.url);
  const http = 'parcel_http_request_duration_seconds';
  expect(metrics.families.get(http)?.type).toBe('HISTOGRAM');
  // Each request once, whatever events (finish, close) its end raised.
  expect(metrics.histogramCount(http, { route: CREATE_ORDER, method: 'POST', status_class: '2xx' })).toBe(N);
  expect(metrics.histogramCount(http, { route: CREATE_ORDER, method: 'POST', status_class: '4xx' })).toBe(1);
  expect(metrics.histogramCount(http, { route: 'unmatched', method: 'GET', status_class: '4xx' })).toBe(1);
  // Route templates only: no tracking number, no raw path; the scrapes themselves are not counted.
  const routes = new Set(metrics.samples(`${http}_count`).map((s) => s.labels.route));
  expect([...routes].sort()).toEqual([CREATE_ORDER, 'unmatched']);

  expect(
    metrics.histogramCount('parcel_bus_request_duration_seconds', { topic: 'parcel.commands.order', outcome: 'ok' }),
  ).toBe(N);
  expect(
    metrics.histogramCount('parcel_bus_handle_duration_seconds', { topic: 'parcel.commands.order', outcome: 'ok' }),
  ).toBe(N);

  // Each order appends once (reference claim and parcel, one appendMany); the registrations of a
  // page of the log once more, all together.
  const appends = metrics.histogramCount('parcel_eventstore_append_duration_seconds', { outcome: 'ok' });
  expect(appends).toBeGreaterThan(N);
  const groups = metrics.histogramCount('parcel_eventstore_commit_group_size');
  expect(groups).toBeGreaterThan(0);
  expect(groups).toBeLessThanOrEqual(appends);
  // Every append call is in exactly one group.
  expect(metrics.histogramSum('parcel_eventstore_commit_group_size')).toBe(appends);

  const head = metrics.value('parcel_eventstore_head_position')!;
  expect(head).toBeGreaterThanOrEqual(3 * N);
  const lag = 'parcel_eventstore_subscription_lag_events';
  expect(metrics.families.get(lag)?.type).toBe('GAUGE');
  // No downstream publisher: the embedded stack publishes no downstream topics (its bus is in-process).
  expect(Object.fromEntries(metrics.samples(lag).map((s) => [s.labels.subscription, s.value]))).toEqual({
    'parcel-view': 0,
    'carrier-registration': 0,
    'order-batches': 0,
    'order-imports': 0,
    'order-manifests': 0,
    'webhook-fan-out': 0,
  });
  expect(metrics.value('parcel_carrier_registration_backlog_events')).toBe(0);

  // prom-client's process metrics.
  expect(metrics.families.get('process_cpu_seconds_total')?.type).toBe('COUNTER');
  expect(metrics.families.has('nodejs_eventloop_lag_seconds')).toBe(true);
  // The loop's busy time: it served the requests above.
  expect(metrics.families.get('parcel_eventloop_busy_seconds_total')?.type).toBe('COUNTER');
  expect(metrics.value('parcel_eventloop_busy_seconds_total')).toBeGreaterThan(0);
});

describe('the reading of a scrape (test/support/metrics.ts)', () => {
  const histogram = (minor: [number, number], major: [number, number]) =>
    [
      '# HELP g_seconds a histogram',
      '# TYPE g_seconds histogram',
      `g_seconds_bucket{le="1",kind="minor"} ${minor[0]}`,
      `g_seconds_bucket{le="+Inf",kind="minor"} ${minor[1]}`,
      'g_seconds_sum{kind="minor"} 0.5',
      `g_seconds_count{kind="minor"} ${minor[1]}`,
      `g_seconds_bucket{le="1",kind="ma\\"jor"} ${major[0]}`,
      `g_seconds_bucket{le="+Inf",kind="ma\\"jor"} ${major[1]}`,
      'g_seconds_sum{kind="ma\\"jor"} 2',
      `g_seconds_count{kind="ma\\"jor"} ${major[1]}`,
      '',
    ].join('\n');

  test('keeps the series of a labelled histogram apart', () => {
    const read = parseScrape(histogram([1, 2], [3, 5]));
    expect(read.histogramCount('g_seconds', { kind: 'minor' })).toBe(2);
    expect(read.histogramCount('g_seconds', { kind: 'ma"jor' })).toBe(5);
    expect(read.histogramCount('g_seconds')).toBe(7);
    expect(read.histogramSum('g_seconds')).toBe(2.5);
  });

  test('refuses buckets that decrease, a count that is not the +Inf bucket, a sample without TYPE and a malformed line', () => {
    expect(() => parseScrape(histogram([3, 2], [3, 5]))).toThrow(/buckets decrease/);
    expect(() =>
      parseScrape(
        histogram([1, 2], [3, 5]).replace('g_seconds_count{kind="minor"} 2', 'g_seconds_count{kind="minor"} 3'),
      ),
    ).toThrow(/not the count/);
    expect(() => parseScrape('# TYPE a gauge\na 1\nb 2\n')).toThrow(/b has no TYPE/);
    expect(() => parseScrape('# TYPE a gauge\na{x="1} 1\n')).toThrow();
  });
});
