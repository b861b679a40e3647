/**
 * One side of the CPU benchmark (bench/cpu.ts starts it): a bus that serves the bench topic
 * (responder) or sends requests to it (requester), driven by its parent over IPC. The parent reads
 * this process's CPU time from /proc around each phase; this process counts its Kafka requests.
 */
import { randomUUID } from 'node:crypto';
import { countKafkaRequests, requestCounts } from './requestCounter.ts';
import type { Bus } from '@parcel-logistics/bus';

export interface StartCommand {
  cmd: 'start';
  role: 'requester' | 'responder';
  /** Absolute path of the module that exports the bus factory. */
  module: string;
  factory: string;
  options: Record<string, unknown>;
  topic: string;
}
export type PhaseCommand =
  | { cmd: 'sequential'; total: number }
  | { cmd: 'rate'; rate: number; seconds: number }
  | { cmd: 'flat'; total: number; inFlight: number }
  | { cmd: 'counts' }
  | { cmd: 'close' };
export interface Latencies {
  n: number;
  failed: number;
  p50: number;
  p90: number;
  p99: number;
  max: number;
  elapsedMs: number;
}
export type RoleAnswer =
  | { ready: true }
  | { done: PhaseCommand['cmd']; latencies?: Latencies; counts?: Record<string, number> }
  | { error: string };

const brokerPorts = new Set(
  (process.env.PARCEL_KAFKA_BROKERS ?? '').split(',').map((broker) => Number(broker.split(':').at(-1))),
);
countKafkaRequests(brokerPorts);

const send = (answer: RoleAnswer) => process.send?.(answer);
let bus: Bus | undefined;
let topic = '';

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;
function summary(latencies: number[], failed: number, elapsedMs: number): Latencies {
  const sorted = [...latencies].sort((a, b) => a - b);
  return {
    n: sorted.length,
    failed,
    p50: percentile(sorted, 50),
    p90: percentile(sorted, 90),
    p99: percentile(sorted, 99),
    max: sorted.at(-1) ?? NaN,
    elapsedMs,
  };
}

async function timed(n: number): Promise<number> {
  const started = performance.now();
  await bus?.request(
    topic,
    { id: randomUUID(), key: `parcel-${n % 997}`, type: 'Bench', payload: { n } },
    { timeoutMs: 10_000 },
  );
  return performance.now() - started;
}

async function phase(command: PhaseCommand): Promise<Latencies | undefined> {
  const latencies: number[] = [];
  let failed = 0;
  const one = (n: number) =>
    timed(n).then(
      (ms) => void latencies.push(ms),
      () => void (failed += 1),
    );
  const started = performance.now();
  if (command.cmd === 'sequential') {
    for (let n = 0; n < command.total; n += 1) await one(n);
  } else if (command.cmd === 'flat') {
    let next = 0;
    await Promise.all(
      Array.from({ length: command.inFlight }, async () => {
        while (next < command.total) await one((next += 1));
      }),
    );
  } else if (command.cmd === 'rate') {
    // On a fixed schedule, whatever the replies: one request every 1000/rate ms.
    const sent: Promise<void>[] = [];
    for (let n = 0; n < command.rate * command.seconds; n += 1) {
      sent.push(one(n));
      const due = started + ((n + 1) * 1000) / command.rate;
      await new Promise((resolve) => setTimeout(resolve, Math.max(0, due - performance.now())));
    }
    await Promise.all(sent);
  } else {
    return undefined;
  }
  return summary(latencies, failed, performance.now() - started);
}

process.on('message', (raw: StartCommand | PhaseCommand) => {
  void (async () => {
    try {
      if (raw.cmd === 'start') {
        topic = raw.topic;
        const factory = (await import(raw.module))[raw.factory] as (options: Record<string, unknown>) => Promise<Bus>;
        bus = await factory({ ...raw.options, clientId: `bench-${raw.role}` });
        if (raw.role === 'responder') await bus.handleRequests(topic, async (message) => ({ echoed: message.payload }));
        send({ ready: true });
      } else if (raw.cmd === 'counts') {
        send({ done: 'counts', counts: requestCounts() });
      } else if (raw.cmd === 'close') {
        await bus?.close();
        send({ done: 'close' });
        process.disconnect();
      } else {
        send({ done: raw.cmd, latencies: await phase(raw) });
      }
    } catch (error) {
      send({ error: error instanceof Error ? (error.stack ?? error.message) : String(error) });
    }
  })();
});
