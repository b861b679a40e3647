/**
 * Request/reply round trip on the Kafka bus: 1000 sequential requests, then 50 requests kept in
 * flight at once, then requests sent at a fixed rate (300/s for 10 s, as the distributed
 * create-order benchmark: the transport's share of its latency). Two bus instances in this
 * process (requester and handler), a fresh 6-partition command topic (deleted afterwards), the
 * shared reply topic.
 * Run: eval "$(bash infra/up.sh kafka)"; node packages/bus-kafka/bench/requestReply.ts [sequential] [inFlight] [concurrentTotal] [ratePerSecond] [rateSeconds]
 * CPU per round trip and idle CPU, with requester and responder in processes of their own: bench/cpu.ts.
 */
import { randomUUID } from 'node:crypto';
import { Kafka } from 'kafkajs';
import { createKafkaBus } from '../src/kafkajs/index.ts';
import type { Bus } from '@parcel-logistics/bus';

const brokers = process.env.PARCEL_KAFKA_BROKERS?.split(',');
if (!brokers) throw new Error('PARCEL_KAFKA_BROKERS is not set: run eval "$(bash infra/up.sh kafka)" first');
const [sequential = 1000, inFlight = 50, concurrentTotal = 5000, rate = 300, rateSeconds = 10] = process.argv
  .slice(2)
  .map(Number);
const topic = `bench.bus.requests.${randomUUID().slice(0, 8)}`;

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;
function report(label: string, latencies: number[], elapsedMs: number) {
  const sorted = [...latencies].sort((a, b) => a - b);
  const ms = (value: number) => `${value.toFixed(2)} ms`;
  console.log(
    `${label}: n=${sorted.length} p50 ${ms(percentile(sorted, 50))}  p90 ${ms(percentile(sorted, 90))}  p99 ${ms(percentile(sorted, 99))}  max ${ms(sorted.at(-1) ?? NaN)}  ` +
      `throughput ${Math.round(sorted.length / (elapsedMs / 1000))}/s`,
  );
}

async function timed(client: Bus, n: number): Promise<number> {
  const started = performance.now();
  const id = randomUUID();
  await client.request(topic, { id, key: `parcel-${n % 997}`, type: 'Bench', payload: { n } }, { timeoutMs: 10_000 });
  return performance.now() - started;
}

const options = { brokers, logLevel: 'error' as const, ensureTopics: { partitions: 6 } };
const server = await createKafkaBus({ ...options, clientId: 'bench-server' });
const client = await createKafkaBus({ ...options, clientId: 'bench-client' });
try {
  await server.handleRequests(topic, async (message) => ({ echoed: message.payload }));
  for (let n = 0; n < 200; n += 1) await timed(client, n); // warm-up: connections, metadata, JIT

  let started = performance.now();
  const sequentialLatencies: number[] = [];
  for (let n = 0; n < sequential; n += 1) sequentialLatencies.push(await timed(client, n));
  report(`sequential (1 in flight)`, sequentialLatencies, performance.now() - started);

  started = performance.now();
  const concurrentLatencies: number[] = [];
  let next = 0;
  await Promise.all(
    Array.from({ length: inFlight }, async () => {
      while (next < concurrentTotal) concurrentLatencies.push(await timed(client, (next += 1)));
    }),
  );
  report(`concurrent (${inFlight} in flight)`, concurrentLatencies, performance.now() - started);

  // On a fixed schedule, whatever the replies: one request every 1000/rate ms.
  started = performance.now();
  const rateLatencies: number[] = [];
  const sent: Promise<void>[] = [];
  for (let n = 0; n < rate * rateSeconds; n += 1) {
    sent.push(timed(client, n).then((ms) => void rateLatencies.push(ms)));
    const due = started + ((n + 1) * 1000) / rate;
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, due - performance.now())));
  }
  await Promise.all(sent);
  report(`at ${rate}/s for ${rateSeconds} s`, rateLatencies, performance.now() - started);
} finally {
  await Promise.all([client.close(), server.close()]);
  const admin = new Kafka({ clientId: 'bench-cleanup', brokers, logCreator: () => () => undefined }).admin();
  await admin.connect();
  await admin.deleteTopics({ topics: [topic] }).catch(() => undefined);
  await admin.disconnect();
}
