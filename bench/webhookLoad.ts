/**
 * The webhook benchmark's client side: a receiver in this process that notes when each event
 * arrives, and the run against one gateway (an endpoint, create-orders at a fixed rate, then a
 * backlog). Arrival and answer times are read on the same clock (`performance.now()`).
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { WEBHOOK_EVENT_TYPES } from '@parcel-logistics/contracts';
import { orderJson, signed } from './orders.ts';
import { percentile, round } from './support.ts';

const rate = Number(process.env.BENCH_WEBHOOK_RATE ?? 100);
const seconds = Number(process.env.BENCH_WEBHOOK_S ?? 20);
const backlogOrders = Number(process.env.BENCH_WEBHOOK_BACKLOG ?? 1000);
/** How long the run waits for the last webhooks, after the last order. */
const WAIT_MS = 120_000;

interface Arrival {
  at: number;
  type: string;
  trackingNumber: string;
}

export interface Receiver {
  url: string;
  arrivals: Arrival[];
  /** false: every request is answered 503, so the endpoint's queue fills behind its first delivery. */
  accepting: boolean;
  close(): Promise<void>;
}

export async function startReceiver(): Promise<Receiver> {
  const receiver = { arrivals: [] as Arrival[], accepting: true };
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      if (!receiver.accepting) return res.writeHead(503).end();
      const at = performance.now();
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { type: string; trackingNumber?: string };
      receiver.arrivals.push({ at, type: body.type, trackingNumber: body.trackingNumber ?? '' });
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return Object.assign(receiver, {
    url: `http://127.0.0.1:${port}/hook`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  });
}

export interface DeliveryFigures {
  ordersPerS: number;
  eventsPerS: number;
  p50Ms: number;
  p99Ms: number;
  maxMs: number;
  /** The server side's CPU time (the embedded process; every process of the distributed stack) per order at the fixed rate with no endpoint to deliver to. */
  cpuMsPerOrder: number;
  /** What delivery adds to it, per event delivered: the same rate with the endpoint, less the rate without. */
  cpuMsPerEvent: number;
  backlogEventsPerS: number;
}

async function call(gateway: string, op: string, body: unknown): Promise<Record<string, unknown>> {
  const r = await fetch(`${gateway}/v1/openapi/${op}`, {
    method: 'POST',
    headers: signed(),
    body: JSON.stringify(body),
  });
  const answer = (await r.json()) as { code: number; msg: string; data: Record<string, unknown> };
  if (answer.code !== 0) throw new Error(`${op}: ${answer.msg}`);
  return answer.data;
}

const createOrder = async (gateway: string) =>
  String((await call(gateway, 'order/create-order', JSON.parse(orderJson('W')))).wmg_tracking_num);

async function until(done: () => boolean, what: string): Promise<void> {
  const deadline = performance.now() + WAIT_MS;
  while (!done()) {
    if (performance.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** Order i is sent at start + i / rate, whatever the answers before it did; resolves once all are answered. */
async function fixedRate(gateway: string, total: number): Promise<{ start: number; answered: Map<string, number> }> {
  const answered = new Map<string, number>();
  const start = performance.now();
  const sends: Promise<void>[] = [];
  for (let i = 0; i < total; i++) {
    const wait = start + (i * 1000) / rate - performance.now();
    if (wait > 0) await new Promise((r) => setTimeout(r, wait));
    sends.push(createOrder(gateway).then((tn) => void answered.set(tn, performance.now())));
  }
  await Promise.all(sends);
  return { start, answered };
}

const registrations = (receiver: Receiver, from: number) =>
  receiver.arrivals.slice(from).filter((a) => a.type === 'ParcelRegistered');

/** The fixed-rate run and the backlog against one gateway, on a stack with no webhook endpoint yet. */
/** `cpuSince()` starts a reading of the server side's CPU; the function it answers gives the ms spent since. */
export async function measureDelivery(options: {
  gateway: string;
  receiverUrl: string;
  receiver: Receiver;
  cpuSince: () => () => number;
}): Promise<DeliveryFigures> {
  const { gateway, receiver } = options;
  const endpoint = await call(gateway, 'webhook/create-endpoint', {
    url: options.receiverUrl,
    event_types: [...WEBHOOK_EVENT_TYPES],
    description: 'bench',
  });

  // Warm-up, unmeasured: connections, JIT, the first pages of every subscription.
  let from = receiver.arrivals.length;
  await Promise.all(Array.from({ length: 50 }, () => createOrder(gateway)));
  await until(() => registrations(receiver, from).length >= 50, 'the warm-up webhooks');

  // The same rate with the endpoint disabled first (nothing is queued for it): what the orders cost
  // without webhooks, in the same run. Each phase's CPU is read over its orders and 2 s after them.
  const total = rate * seconds;
  const phaseCpu = async (run: () => Promise<void>) => {
    const spent = options.cpuSince();
    await run();
    await new Promise((r) => setTimeout(r, 2000));
    return spent();
  };
  await call(gateway, 'webhook/update-endpoint', { endpoint_id: endpoint.endpoint_id, enabled: false });
  const cpuWithout = await phaseCpu(async () => void (await fixedRate(gateway, total)));
  await call(gateway, 'webhook/update-endpoint', { endpoint_id: endpoint.endpoint_id, enabled: true });

  from = receiver.arrivals.length;
  let start = 0;
  let answered = new Map<string, number>();
  const cpuWith = await phaseCpu(async () => void ({ start, answered } = await fixedRate(gateway, total)));
  await until(
    () => registrations(receiver, from).filter((a) => answered.has(a.trackingNumber)).length >= total,
    'the fixed-rate webhooks',
  );
  const arrived = receiver.arrivals.slice(from);
  const end = Math.max(...registrations(receiver, from).map((a) => a.at));
  const windowS = (end - start) / 1000;
  const inWindow = arrived.filter((a) => a.at <= end).length;
  const latencies = registrations(receiver, from)
    .filter((a) => answered.has(a.trackingNumber))
    .map((a) => a.at - answered.get(a.trackingNumber)!)
    .sort((a, b) => a - b);

  // Backlog: the receiver refuses while the orders come in, so the endpoint's queue holds them all;
  // then it accepts, and the queue is timed from its first delivery to its last.
  receiver.accepting = false;
  await Promise.all(
    Array.from({ length: 8 }, async (_, w) => {
      for (let i = w; i < backlogOrders; i += 8) await createOrder(gateway);
    }),
  );
  // Let the fan-out queue the last ones before the queue may move.
  await new Promise((r) => setTimeout(r, 3000));
  from = receiver.arrivals.length;
  receiver.accepting = true;
  await until(() => registrations(receiver, from).length >= backlogOrders, 'the backlog webhooks');
  const backlog = receiver.arrivals.slice(from);
  const backlogSpan = (backlog.at(-1)!.at - backlog[0]!.at) / 1000;

  await call(gateway, 'webhook/delete-endpoint', { endpoint_id: endpoint.endpoint_id });
  return {
    ordersPerS: round(total / ((Math.max(...answered.values()) - start) / 1000), 1),
    eventsPerS: round(inWindow / windowS, 1),
    p50Ms: round(percentile(latencies, 50), 1),
    p99Ms: round(percentile(latencies, 99), 1),
    maxMs: round(latencies.at(-1)!, 1),
    cpuMsPerOrder: round(cpuWithout / total, 3),
    cpuMsPerEvent: round((cpuWith - cpuWithout) / Math.max(1, inWindow), 3),
    backlogEventsPerS: round(backlog.length / Math.max(0.001, backlogSpan), 1),
  };
}
