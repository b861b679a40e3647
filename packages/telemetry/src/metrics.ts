/**
 * Metrics in the Prometheus text format (prom-client), for `GET /metrics` of every service process.
 * One `Metrics` per process (per embedded stack): its own registry of the `parcel_*` metrics, plus
 * prom-client's process metrics, registered once per process and shared. Nothing of ours runs
 * between scrapes: histograms are observed where the work is done (the decorators below), and the
 * gauges are computed when scraped (the subscription lag reads the store's head and checkpoints then).
 */
import { performance } from 'node:perf_hooks';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';

/** What `GET /metrics` answers with. */
export interface MetricsText {
  /** `text/plain; version=0.0.4; charset=utf-8` */
  readonly contentType: string;
  /** Every metric, collected now, in the Prometheus text format. */
  render(): Promise<string>;
}

/** Where the log's head is and how far behind it each subscription of a store is. */
export interface LagReading {
  head: number;
  /** Events behind the head, per subscription id. */
  lags: ReadonlyMap<string, number>;
}

export type LagSource = () => Promise<LagReading>;

export interface Metrics extends MetricsText {
  readonly registry: Registry;
  readonly httpRequestDuration: Histogram<'route' | 'method' | 'status_class'>;
  readonly busRequestDuration: Histogram<'topic' | 'outcome'>;
  readonly busHandleDuration: Histogram<'topic' | 'outcome'>;
  readonly appendDuration: Histogram<'operation' | 'outcome'>;
  readonly commitGroupSize: Histogram;
  /** The `onCommit` hook of the SQLite and PostgreSQL stores: observes one commit group's size. */
  readonly onCommit: (groupSize: number) => void;
  /** A store whose subscriptions' lag the scrape reads (meteredEventStore adds its store); returns its removal. */
  addLagSource(source: LagSource): () => void;
  /**
   * Reads every source now; one read per source, shared by the gauges of one scrape. A source
   * that cannot be read (its store is down) is left out.
   */
  readLag(): Promise<LagReading[]>;
}

export interface MetricsOptions {
  /** prom-client's process metrics (CPU, memory, handles, event loop delay, GC); default true. */
  processMetrics?: boolean;
}

const CONTENT_TYPE = Registry.PROMETHEUS_CONTENT_TYPE;

/** Seconds, from 0.5 ms to 10 s: an append, a bus round trip, an HTTP request. */
const LATENCY_BUCKETS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];
/** Append calls per commit: the PostgreSQL store commits at most 256 at once. */
const GROUP_BUCKETS = [1, 2, 4, 8, 16, 32, 64, 128, 256];

let processRegistry: Registry | undefined;

/**
 * prom-client's default metrics, started once per process and never stopped: they are the
 * process's, whichever stack renders them. Besides reading counters on scrape, they keep Node's
 * event-loop-delay histogram (`monitorEventLoopDelay`, sampled by libuv in native code) and a GC
 * observer (`nodejs_gc_duration_seconds`) running: the only parts that do anything between scrapes.
 * The delay is sampled once a second rather than every 10 ms (prom-client's default). Each sample is
 * a timer that wakes the process: on the benches' 2-core machine the histogram alone cost an idle
 * process 0.87 ms of CPU per second at 100 ms, 0.10 at 1 s (`node` with nothing else, 30 s each).
 * A sample a second still shows a loop that stalls often; `nodejs_eventloop_lag_seconds`, measured
 * at each scrape, is unaffected.
 */
function processMetrics(): Registry {
  if (!processRegistry) {
    processRegistry = new Registry();
    collectDefaultMetrics({ register: processRegistry, eventLoopMonitoringPrecision: 1_000 });
    // Read on scrape, like the CPU: the loop's busy time, whose rate is its utilisation. A loop near
    // 1 is the process's limit even when its CPU time is less (the rest blocked in system calls, or
    // waiting for a core).
    let counted = 0;
    new Counter({
      name: 'parcel_eventloop_busy_seconds_total',
      help: "Time the main thread's event loop spent running callbacks rather than waiting for I/O, since the process started (Node's event loop utilisation, active time). Its rate is the loop's utilisation: 1 when saturated.",
      registers: [processRegistry],
      collect() {
        const active = performance.eventLoopUtilization().active;
        this.inc(Math.max(0, active - counted) / 1000);
        counted = Math.max(counted, active);
      },
    });
  }
  return processRegistry;
}

export function createMetrics(options: MetricsOptions = {}): Metrics {
  const registry = new Registry();
  const shared = options.processMetrics === false ? undefined : processMetrics();
  const registers = [registry];

  const latency = <L extends string>(name: string, help: string, labelNames: readonly L[]) =>
    new Histogram<L>({ name, help, labelNames, buckets: LATENCY_BUCKETS, registers });

  const httpRequestDuration = latency(
    'parcel_http_request_duration_seconds',
    'HTTP requests of the gateway, from arrival to the last byte of the answer, by route template, method and status class.',
    ['route', 'method', 'status_class'],
  );
  const busRequestDuration = latency(
    'parcel_bus_request_duration_seconds',
    'Bus requests (commands) from send to reply, by topic and outcome (ok, timeout, remote_error, error).',
    ['topic', 'outcome'],
  );
  const busHandleDuration = latency(
    'parcel_bus_handle_duration_seconds',
    'Bus requests handled by this process, from receipt to reply, by topic and outcome (ok, error).',
    ['topic', 'outcome'],
  );
  const appendDuration = latency(
    'parcel_eventstore_append_duration_seconds',
    'Event store appends from call to commit, by operation (append, appendMany) and outcome (ok, wrong_expected_revision, duplicate_event_id, error).',
    ['operation', 'outcome'],
  );
  const commitGroupSize = new Histogram({
    name: 'parcel_eventstore_commit_group_size',
    help: 'Append calls carried by one group commit of the event store (SQLite, PostgreSQL).',
    buckets: GROUP_BUCKETS,
    registers,
  });

  const sources = new Set<LagSource>();
  let reading: Promise<LagReading[]> | undefined;
  const readLag = (): Promise<LagReading[]> =>
    // Shared while in flight: the gauges of one scrape are collected together and read once.
    (reading ??= Promise.allSettled([...sources].map((source) => source()))
      .then((results) => results.flatMap((r) => (r.status === 'fulfilled' ? [r.value] : [])))
      .finally(() => {
        reading = undefined;
      }));

  new Gauge({
    name: 'parcel_eventstore_subscription_lag_events',
    help: "Events of the log a subscription of this process has yet to handle: the head position less the subscription's position, read on scrape.",
    labelNames: ['subscription'] as const,
    registers,
    async collect() {
      const readings = await readLag();
      this.reset();
      for (const { lags } of readings) for (const [subscription, lag] of lags) this.set({ subscription }, lag);
    },
  });
  new Gauge({
    name: 'parcel_eventstore_head_position',
    help: 'Global position of the last event committed to the event store, read on scrape.',
    registers,
    async collect() {
      const readings = await readLag();
      if (readings.length > 0) this.set(Math.max(...readings.map((r) => r.head)));
      else this.remove({});
    },
  });

  return {
    registry,
    contentType: CONTENT_TYPE,
    async render() {
      const [own, ofProcess] = await Promise.all([registry.metrics(), shared?.metrics() ?? Promise.resolve('')]);
      return ofProcess ? `${own}\n${ofProcess}` : own;
    },
    httpRequestDuration,
    busRequestDuration,
    busHandleDuration,
    appendDuration,
    commitGroupSize,
    onCommit: (groupSize) => commitGroupSize.observe(groupSize),
    addLagSource(source) {
      sources.add(source);
      return () => sources.delete(source);
    },
    readLag,
  };
}

/**
 * `parcel_carrier_registration_backlog_events`, in the process running the carrier-registration
 * worker: the lag of its subscription (`subscriptionId`), i.e. the events of the log it has yet to
 * read. Each parcel waiting for registration is about two of them (its reference claim and its
 * `ParcelRegistered`), beside whatever else was committed since; 0 once every parcel committed so
 * far has been handled. Absent while the worker's subscription is not open in this process.
 */
export function watchRegistrationBacklog(metrics: Metrics, subscriptionId: string): void {
  gaugeOnScrape(
    metrics,
    'parcel_carrier_registration_backlog_events',
    'Events of the log the carrier-registration worker has yet to read (about two per parcel waiting to be registered with its carrier), read on scrape.',
    async () => (await metrics.readLag()).map(({ lags }) => lags.get(subscriptionId)).find((lag) => lag !== undefined),
  );
}

/** A gauge without labels whose value `read` gives when scraped; undefined leaves it without a sample. */
export function gaugeOnScrape(
  metrics: Metrics,
  name: string,
  help: string,
  read: () => number | undefined | Promise<number | undefined>,
): void {
  new Gauge({
    name,
    help,
    registers: [metrics.registry],
    async collect() {
      const value = await read();
      if (value !== undefined) this.set(value);
      // A gauge without labels reports 0 once reset; removing its one series leaves it without a sample.
      else this.remove({});
    },
  });
}

/** `outcome` of a timed call. */
export async function timed<T>(
  histogram: Histogram<string>,
  labels: Record<string, string>,
  outcomeOf: (error: unknown) => string,
  run: () => Promise<T>,
): Promise<T> {
  const started = performance.now();
  try {
    const result = await run();
    histogram.observe({ ...labels, outcome: 'ok' }, (performance.now() - started) / 1000);
    return result;
  } catch (error) {
    histogram.observe({ ...labels, outcome: outcomeOf(error) }, (performance.now() - started) / 1000);
    throw error;
  }
}
