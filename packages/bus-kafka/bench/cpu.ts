/**
 * CPU per request/reply round trip, and idle CPU, of the bus adapters on the distributed topology:
 * the requester and the responder each run in a process of their own (bench/cpuRole.ts), and this
 * process reads their CPU time (utime + stime from /proc/<pid>/stat) around each phase:
 *
 *   idle   both connected (the responder serves a topic, the requester's reply reader runs), doing nothing
 *   rate   requests at a fixed rate (default 300/s for 10 s), as the distributed create-order benchmark
 *   flat   requests flat out with a fixed number in flight (default 5000 requests, 50 in flight)
 *
 * Each process also counts the Kafka requests it sends, by API (bench/requestCounter.ts). Variants
 * run interleaved, fresh processes and a fresh 6-partition topic each time, over several rounds;
 * the tables show medians over the rounds. The machine is shared: compare variants of one run.
 *
 * Run: eval "$(bash infra/up.sh kafka)"; node packages/bus-kafka/bench/cpu.ts [options]
 *   --variant label=spec   (repeatable; default kafkajs=kafkajs) where spec is
 *       kafkajs | platformatic          this checkout's adapters
 *       git:<rev>                       the Kafka adapter's src of a commit (its kafkajs adapter), e.g. git:b16a3c1
 *       git:<rev>:nofix                 the same without its kafka/idlePollFix.ts import
 *     optionally followed by @<json>: bus options merged in, e.g. 'tuned=kafkajs@{"keyConcurrency":8}'
 *   --rounds 3  --warmup 300  --settle 3  --idle 10  --rate 300  --rate-seconds 10  --flat 5000  --in-flight 50
 *   --json <file>   also write every measurement
 */
import { execFileSync, fork } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { Kafka } from 'kafkajs';
import type { Latencies, PhaseCommand, RoleAnswer, StartCommand } from './cpuRole.ts';
import { repoRoot, variant, type Variant } from './cpuVariants.ts';

const here = dirname(fileURLToPath(import.meta.url));

const brokers = process.env.PARCEL_KAFKA_BROKERS?.split(',');
if (!brokers) throw new Error('PARCEL_KAFKA_BROKERS is not set: run eval "$(bash infra/up.sh kafka)" first');

const { values: args } = parseArgs({
  options: {
    variant: { type: 'string', multiple: true, default: ['kafkajs=kafkajs'] },
    rounds: { type: 'string', default: '3' },
    warmup: { type: 'string', default: '300' },
    settle: { type: 'string', default: '3' },
    idle: { type: 'string', default: '10' },
    rate: { type: 'string', default: '300' },
    'rate-seconds': { type: 'string', default: '10' },
    flat: { type: 'string', default: '5000' },
    'in-flight': { type: 'string', default: '50' },
    json: { type: 'string' },
  },
});
const num = (name: keyof typeof args) => Number(args[name]);

const variants = (args.variant ?? []).map(variant);
const ticksPerSecond = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim());

/** utime + stime of a process, in milliseconds. */
function cpuMs(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / ticksPerSecond;
}

const brokerPidFile = join(repoRoot, '.infra', 'kafka', 'kafka.pid');
const brokerPid = existsSync(brokerPidFile) ? Number(readFileSync(brokerPidFile, 'utf8').trim()) : undefined;
const brokerAlive = brokerPid !== undefined && existsSync(`/proc/${brokerPid}/stat`);

class Role {
  readonly child: ChildProcess;
  readonly name: string;
  private waiting: Array<(answer: RoleAnswer) => void> = [];

  constructor(name: string) {
    this.name = name;
    this.child = fork(join(here, 'cpuRole.ts'), [], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
    this.child.on('message', (answer: RoleAnswer) => this.waiting.shift()?.(answer));
  }

  ask(command: StartCommand | PhaseCommand): Promise<RoleAnswer> {
    return new Promise((resolveAnswer, reject) => {
      this.waiting.push((answer) =>
        'error' in answer ? reject(new Error(`${this.name}: ${answer.error}`)) : resolveAnswer(answer),
      );
      this.child.send(command);
    });
  }

  async counts(): Promise<Record<string, number>> {
    const answer = await this.ask({ cmd: 'counts' });
    return 'counts' in answer && answer.counts ? answer.counts : {};
  }

  cpu(): number {
    return cpuMs(this.child.pid ?? 0);
  }

  async close(): Promise<void> {
    const exited = new Promise((resolveExit) => this.child.once('exit', resolveExit));
    await this.ask({ cmd: 'close' }).catch(() => this.child.kill());
    await exited;
  }
}

interface Sample {
  at: number;
  cpu: [number, number, number];
  counts: [Record<string, number>, Record<string, number>];
}
interface PhaseResult {
  seconds: number;
  /** CPU ms of requester, responder, broker (NaN when the broker is not ours to read). */
  cpuMs: [number, number, number];
  requests: [Record<string, number>, Record<string, number>];
  latencies?: Latencies;
}
interface RunResult {
  variant: string;
  round: number;
  idle: PhaseResult;
  rate: PhaseResult;
  flat: PhaseResult;
}

const sleep = (ms: number) => new Promise((resolveSleep) => setTimeout(resolveSleep, ms));
const diff = (after: Record<string, number>, before: Record<string, number>) =>
  Object.fromEntries(
    Object.entries(after)
      .map(([api, n]) => [api, n - (before[api] ?? 0)])
      .filter(([, n]) => Number(n) > 0),
  );

async function sample(requester: Role, responder: Role): Promise<Sample> {
  const counts: Sample['counts'] = [await requester.counts(), await responder.counts()];
  return {
    at: performance.now(),
    cpu: [requester.cpu(), responder.cpu(), brokerAlive ? cpuMs(brokerPid ?? 0) : NaN],
    counts,
  };
}
function between(before: Sample, after: Sample, latencies?: Latencies): PhaseResult {
  return {
    seconds: (after.at - before.at) / 1000,
    cpuMs: [after.cpu[0] - before.cpu[0], after.cpu[1] - before.cpu[1], after.cpu[2] - before.cpu[2]],
    requests: [diff(after.counts[0], before.counts[0]), diff(after.counts[1], before.counts[1])],
    ...(latencies ? { latencies } : {}),
  };
}

async function runOnce(
  admin: ReturnType<Kafka['admin']>,
  target: Variant,
  round: number,
  replyTopic: string,
): Promise<RunResult> {
  const topic = `bench.bus.cpu.${randomUUID().slice(0, 8)}`;
  await admin.createTopics({ topics: [{ topic, numPartitions: 6, replicationFactor: 1 }], waitForLeaders: true });
  const options = { ...target.options, brokers, replyTopic, logLevel: 'error' };
  const responder = new Role('responder');
  const requester = new Role('requester');
  try {
    await responder.ask({
      cmd: 'start',
      role: 'responder',
      module: target.module,
      factory: target.factory,
      options,
      topic,
    });
    await requester.ask({
      cmd: 'start',
      role: 'requester',
      module: target.module,
      factory: target.factory,
      options,
      topic,
    });
    await requester.ask({ cmd: 'sequential', total: num('warmup') }); // connections, metadata, JIT
    await sleep(num('settle') * 1000);

    let before = await sample(requester, responder);
    await sleep(num('idle') * 1000);
    const idle = between(before, await sample(requester, responder));

    const phase = async (command: PhaseCommand) => {
      before = await sample(requester, responder);
      const answer = await requester.ask(command);
      return between(before, await sample(requester, responder), 'latencies' in answer ? answer.latencies : undefined);
    };
    const rate = await phase({ cmd: 'rate', rate: num('rate'), seconds: num('rate-seconds') });
    const flat = await phase({ cmd: 'flat', total: num('flat'), inFlight: num('in-flight') });
    return { variant: target.label, round, idle, rate, flat };
  } finally {
    await requester.close();
    await responder.close();
    await admin.deleteTopics({ topics: [topic] }).catch(() => undefined);
  }
}

const median = (values: number[]) => {
  const sorted = values.filter((value) => !Number.isNaN(value)).sort((a, b) => a - b);
  if (sorted.length === 0) return NaN;
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? (sorted[middle] ?? NaN) : ((sorted[middle - 1] ?? NaN) + (sorted[middle] ?? NaN)) / 2;
};
const total = (counts: Record<string, number>) => Object.values(counts).reduce((sum, n) => sum + n, 0);
const fixed = (value: number, digits = 1) => (Number.isNaN(value) ? '-' : value.toFixed(digits));

function table(title: string, header: string[], rows: string[][]): void {
  const widths = header.map((cell, column) => Math.max(cell.length, ...rows.map((row) => (row[column] ?? '').length)));
  const line = (cells: string[]) => `| ${cells.map((cell, column) => cell.padEnd(widths[column] ?? 0)).join(' | ')} |`;
  console.log(`\n${title}\n${line(header)}\n|${widths.map((width) => '-'.repeat(width + 2)).join('|')}|`);
  for (const row of rows) console.log(line(row));
}

function report(results: RunResult[]): void {
  const of = (label: string) => results.filter((result) => result.variant === label);
  table(
    `Idle, per second (medians of ${num('rounds')} rounds of ${num('idle')} s; broker CPU only when infra/up.sh of this checkout started it)`,
    [
      'variant',
      'requester CPU ms/s',
      'responder CPU ms/s',
      'requester Kafka req/s',
      'responder Kafka req/s',
      'broker CPU ms/s',
    ],
    variants.map(({ label }) => {
      const runs = of(label).map(({ idle }) => idle);
      return [
        label,
        fixed(median(runs.map((run) => run.cpuMs[0] / run.seconds))),
        fixed(median(runs.map((run) => run.cpuMs[1] / run.seconds))),
        fixed(median(runs.map((run) => total(run.requests[0]) / run.seconds))),
        fixed(median(runs.map((run) => total(run.requests[1]) / run.seconds))),
        fixed(median(runs.map((run) => run.cpuMs[2] / run.seconds))),
      ];
    }),
  );
  for (const name of ['rate', 'flat'] as const) {
    const what =
      name === 'rate'
        ? `At ${num('rate')}/s for ${num('rate-seconds')} s`
        : `Flat out, ${num('flat')} requests, ${num('in-flight')} in flight`;
    table(
      `${what}: CPU µs and Kafka requests per round trip (medians of ${num('rounds')} rounds)`,
      [
        'variant',
        'requester µs',
        'responder µs',
        'both µs',
        'requester req',
        'responder req',
        'p50 ms',
        'p99 ms',
        'round trips/s',
        'failed',
        'broker µs',
      ],
      variants.map(({ label }) => {
        const runs = of(label).map((run) => run[name]);
        const per = (value: (run: PhaseResult) => number) =>
          median(runs.map((run) => value(run) / (run.latencies?.n || NaN)));
        return [
          label,
          fixed(
            per((run) => run.cpuMs[0] * 1000),
            0,
          ),
          fixed(
            per((run) => run.cpuMs[1] * 1000),
            0,
          ),
          fixed(
            per((run) => (run.cpuMs[0] + run.cpuMs[1]) * 1000),
            0,
          ),
          fixed(
            per((run) => total(run.requests[0])),
            2,
          ),
          fixed(
            per((run) => total(run.requests[1])),
            2,
          ),
          fixed(median(runs.map((run) => run.latencies?.p50 ?? NaN)), 2),
          fixed(median(runs.map((run) => run.latencies?.p99 ?? NaN)), 2),
          fixed(median(runs.map((run) => (run.latencies?.n ?? NaN) / ((run.latencies?.elapsedMs ?? NaN) / 1000))), 0),
          String(runs.reduce((sum, run) => sum + (run.latencies?.failed ?? 0), 0)),
          fixed(
            per((run) => run.cpuMs[2] * 1000),
            0,
          ),
        ];
      }),
    );
  }
  console.log(
    '\nKafka requests by API (all rounds): idle per second, rate and flat per round trip; requester / responder',
  );
  for (const { label } of variants) {
    const runs = of(label);
    const breakdown = (pick: (run: RunResult) => PhaseResult, unit: (phase: PhaseResult) => number) => {
      const sums: [Record<string, number>, Record<string, number>] = [{}, {}];
      let units = 0;
      for (const run of runs) {
        const phase = pick(run);
        units += unit(phase);
        phase.requests.forEach((counts, side) => {
          for (const [api, n] of Object.entries(counts)) sums[side]![api] = (sums[side]![api] ?? 0) + n;
        });
      }
      return sums
        .map(
          (sum) =>
            Object.entries(sum)
              .sort(([a], [b]) => a.localeCompare(b))
              .map(([api, n]) => `${api} ${fixed(n / units, 2)}`)
              .join(', ') || '-',
        )
        .join('  /  ');
    };
    console.log(`  ${label}`);
    console.log(
      `    idle: ${breakdown(
        (run) => run.idle,
        (phase) => phase.seconds,
      )}`,
    );
    console.log(
      `    rate: ${breakdown(
        (run) => run.rate,
        (phase) => phase.latencies?.n ?? 0,
      )}`,
    );
    console.log(
      `    flat: ${breakdown(
        (run) => run.flat,
        (phase) => phase.latencies?.n ?? 0,
      )}`,
    );
  }
}

const admin = new Kafka({ clientId: 'bench-cpu', brokers, logCreator: () => () => undefined }).admin();
await admin.connect();
const replyTopic = `bench.bus.replies.${randomUUID().slice(0, 8)}`;
await admin.createTopics({
  topics: [{ topic: replyTopic, numPartitions: 6, replicationFactor: 1 }],
  waitForLeaders: true,
});
const results: RunResult[] = [];
try {
  console.log(
    `variants: ${variants.map(({ label, module, options }) => `${label} (${module.replace(`${repoRoot}/`, '')}${Object.keys(options).length ? ` ${JSON.stringify(options)}` : ''})`).join(', ')}`,
  );
  for (let round = 1; round <= num('rounds'); round += 1) {
    // Rotate the order each round, so a drift of the shared machine does not always hit the same variant.
    const order = variants.map((_, index) => variants[(index + round - 1) % variants.length]!);
    for (const target of order) {
      const result = await runOnce(admin, target, round, replyTopic);
      results.push(result);
      const perTrip = (phase: PhaseResult) =>
        fixed(((phase.cpuMs[0] + phase.cpuMs[1]) * 1000) / (phase.latencies?.n || NaN), 0);
      console.log(
        `round ${round} ${target.label}: idle ${fixed(result.idle.cpuMs[0] / result.idle.seconds)} + ${fixed(result.idle.cpuMs[1] / result.idle.seconds)} ms/s, ` +
          `rate ${perTrip(result.rate)} µs/rt p50 ${fixed(result.rate.latencies?.p50 ?? NaN, 2)} ms, flat ${perTrip(result.flat)} µs/rt ` +
          `${fixed((result.flat.latencies?.n ?? NaN) / ((result.flat.latencies?.elapsedMs ?? NaN) / 1000), 0)}/s`,
      );
    }
  }
  report(results);
  if (args.json) writeFileSync(args.json, JSON.stringify(results, null, 2));
} finally {
  await admin.deleteTopics({ topics: [replyTopic] }).catch(() => undefined);
  await admin.disconnect();
}
