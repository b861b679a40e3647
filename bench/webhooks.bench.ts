/**
 * Webhook delivery benchmark: create-orders at a fixed rate (BENCH_WEBHOOK_RATE orders/s,
 * default 100, for BENCH_WEBHOOK_S seconds, default 20) against a stack with one webhook endpoint
 * subscribed to every event type, pointing at a receiver in this process. Per wiring it reports:
 * - the events delivered per second while the orders come in;
 * - the server's CPU per order at the same rate with the endpoint disabled, and what delivery adds
 *   per event (the same rate with the endpoint enabled, less that), read from /proc;
 * - the latency from each create-order answer to its ParcelRegistered webhook's arrival, p50/p99/max
 *   (both read on this process's clock; a webhook may arrive before the answer: a negative latency);
 * - the backlog rate: the endpoint disabled, BENCH_WEBHOOK_BACKLOG orders (default 1 000) created,
 *   the endpoint enabled again, and the time until every queued event arrived: what one endpoint's
 *   queue delivers when it has work waiting (one request at a time per endpoint, to keep order).
 * Wirings: the embedded stack (`npm start`), and the distributed one with two webhook instances
 * (bench/webhooksDistributed.ts), which needs infra/up.sh's servers (`npm run bench` starts them).
 * Run: `node bench/webhooks.bench.ts` (or `npm run bench`); writes bench/results/webhooks.json.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { processCpuMs } from './processCpu.ts';
import { median } from './turns.ts';
import { printColumns, startNpmStart, stopProcess, waitForHttp, writeResults } from './support.ts';
import { measureDelivery, startReceiver } from './webhookLoad.ts';
import { distributedWiring } from './webhooksDistributed.ts';
import type { DeliveryFigures } from './webhookLoad.ts';

const rounds = Number(process.env.BENCH_ROUNDS ?? 3);
/**
 * The receiver listens on loopback. A retry a second after each failure (the default waits 5 s,
 * then 5 min), so the backlog's queue moves as soon as the receiver accepts again.
 */
const webhookEnv = {
  PARCEL_WEBHOOK_ALLOW_PRIVATE: 'on',
  PARCEL_WEBHOOK_RETRY_SCHEDULE_MS: Array(60).fill(1000).join(','),
};

async function embedded(
  receiverUrl: string,
  receiver: Awaited<ReturnType<typeof startReceiver>>,
): Promise<DeliveryFigures> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'parcel-bench-webhooks-'));
  const server = startNpmStart(dataDir, { PORT: '18280', PARCEL_SANDBOX_PORT: '18289', ...webhookEnv });
  try {
    const url = 'http://127.0.0.1:18280';
    await waitForHttp(`${url}/healthz`, 120_000);
    // scripts/start.sh execs node: the child is the whole embedded stack.
    const cpuSince = () => {
      const before = processCpuMs(server.pid!);
      return () => processCpuMs(server.pid!) - before;
    };
    return await measureDelivery({ gateway: url, receiverUrl, receiver, cpuSince });
  } finally {
    await stopProcess(server);
    rmSync(dataDir, { recursive: true, force: true });
  }
}

const medianOf = (list: DeliveryFigures[]): DeliveryFigures => {
  const keys = Object.keys(list[0]!) as (keyof DeliveryFigures)[];
  return Object.fromEntries(keys.map((k) => [k, median(list.map((f) => f[k]))])) as unknown as DeliveryFigures;
};

async function main() {
  const receiver = await startReceiver();
  const results: Record<string, DeliveryFigures[]> = { embedded: [], distributed: [] };
  try {
    for (let round = 1; round <= rounds; round++) {
      results.embedded!.push(await embedded(receiver.url, receiver));
      console.log(`embedded, round ${round}:`, results.embedded!.at(-1));
      results.distributed!.push(
        await distributedWiring(webhookEnv, (gateway, cpuSince) =>
          measureDelivery({ gateway, receiverUrl: receiver.url, receiver, cpuSince }),
        ),
      );
      console.log(`distributed, round ${round}:`, results.distributed!.at(-1));
    }
  } finally {
    await receiver.close();
  }
  const medians = Object.fromEntries(
    Object.entries(results)
      .filter(([, list]) => list.length > 0)
      .map(([wiring, list]) => [wiring, medianOf(list)]),
  );
  console.log(`\nmedians of ${rounds} rounds`);
  printColumns(
    [
      'wiring',
      'orders/s',
      'events/s',
      'p50 ms',
      'p99 ms',
      'max ms',
      'cpu ms/order, no webhooks',
      'cpu ms/event added',
      'backlog events/s',
    ],
    Object.entries(medians).map(([wiring, f]) =>
      [
        wiring,
        f.ordersPerS,
        f.eventsPerS,
        f.p50Ms,
        f.p99Ms,
        f.maxMs,
        f.cpuMsPerOrder,
        f.cpuMsPerEvent,
        f.backlogEventsPerS,
      ].map(String),
    ),
  );
  writeResults('webhooks', { rounds, results, medians });
}

await main();
