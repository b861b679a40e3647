/**
 * Turns of the foundation bench: servers started one after another on fresh data directories, each
 * driven by the same client for the same time, with the server's CPU per request read from /proc
 * (in total and by thread). Comparing turns of one run is what stays meaningful on a shared machine.
 * A server that leaves work behind its answers (the embedded stack's subscriptions: carrier
 * registration, the view, webhooks) is waited for until that work is done, and its figures are
 * given twice: over the load alone, and with the drain, which is what the load really cost.
 */
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type autocannon from 'autocannon';
import { profileShares } from './cpuProfile.ts';
import type { Share, Window } from './cpuProfile.ts';
import { processCpuMs, threadCpuMs } from './processCpu.ts';
import {
  load,
  round,
  sqliteCheckpointLag,
  startProcess,
  stopProcess,
  subscriptionsCaughtUp,
  waitForHttp,
} from './support.ts';
import type { CheckpointLag, Row } from './support.ts';

const root = path.resolve(import.meta.dirname, '..');
export const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

export interface Turn {
  name: string;
  /** The server's command and arguments; the process started must be the server, whose CPU is read. */
  command: string;
  args: string[];
  /** The turn's own environment, beside the one every turn gets. */
  env?: Record<string, string>;
  request: autocannon.Request;
  /**
   * How far the work that follows the answers is behind, for a server on `dataDir` that leaves
   * such work (absent: everything is done when the answer is sent).
   */
  backlog?: (dataDir: string) => () => Promise<CheckpointLag>;
  /** The server's `GET /metrics` has `parcel_eventloop_busy_seconds_total` (a commit before it had none: left out). */
  loopMetrics?: boolean;
}

/** The main thread's event loop busy time, in seconds, from the server's /metrics; undefined where it has none. */
async function loopBusySeconds(url: string): Promise<number | undefined> {
  const text = await (await fetch(`${url}/metrics`)).text();
  const value = /^parcel_eventloop_busy_seconds_total (\S+)$/m.exec(text)?.[1];
  return value === undefined ? undefined : Number(value);
}

/** The monotonic clock that V8's profiler stamps its samples with, in microseconds. */
const monotonicUs = () => Number(process.hrtime.bigint() / 1000n);

const slug = (name: string) =>
  name
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');

/** The server's main thread's profile (written as it exited), summed up over the load: printed, and written beside it. */
function printProfile(name: string, dir: string, pid: number, window: Window): void {
  // CPU.<date>.<time>.<pid>.<thread>.<n>.cpuprofile: thread 0 is the main thread (worker threads write their own).
  const file = readdirSync(dir).find(
    (f) => f.endsWith('.cpuprofile') && f.split('.').slice(3, 5).join('.') === `${pid}.0`,
  );
  if (!file) {
    console.log(`${name}: no CPU profile of pid ${pid} in ${dir}`);
    return;
  }
  const shares = profileShares(path.join(dir, file), window);
  writeFileSync(path.join(dir, 'shares.json'), JSON.stringify({ file, window, ...shares }, null, 2));
  const top = (list: Share[]) =>
    list
      .slice(0, 15)
      .map((share) => `${share.name} ${share.pct} %`)
      .join(', ');
  console.log(`${name}: the main thread over the load, ${shares.samples} samples, by owner: ${top(shares.owners)}`);
  console.log(`${name}: by function of the project: ${top(shares.functions)}`);
}

/** How long a turn waits for its server's subscriptions to catch up before giving up on the drain. */
const DRAIN_TIMEOUT_MS = 300_000;

/**
 * `npm start` of a checkout (scripts/start.sh execs node: the child's pid is the server's). Its
 * subscriptions work on after the answers: the turn waits until their checkpoints reach the log's head.
 */
export const embeddedTurn = (name: string, dir: string, request: autocannon.Request): Turn => ({
  name,
  command: 'bash',
  args: [path.join(dir, 'scripts/start.sh')],
  request,
  backlog: (dataDir) => sqliteCheckpointLag(path.join(dataDir, 'events.db')),
  loopMetrics: true,
});

/** The CRUD baseline (bench/crudBaseline.ts) with `PRAGMA synchronous` FULL or NORMAL, run as a user would: plain `node`. */
export const crudTurn = (durability: 'full' | 'normal', request: autocannon.Request): Turn => ({
  name: `create-order, CRUD baseline (synchronous ${durability.toUpperCase()})`,
  command: process.execPath,
  args: [path.join(root, 'bench/crudBaseline.ts')],
  env: { PARCEL_DURABILITY: durability },
  request,
});

/**
 * The gateway alone (bench/gatewayAlone.ts) in the turns: what the HTTP tier costs per request before
 * anything is stored, set against the CRUD baseline in the same run. It bounds the embedded stack's
 * share from above: whatever the stack stores, it cannot beat its own HTTP tier.
 */
export const aloneTurn = (request: autocannon.Request): Turn => ({
  name: 'create-order, gateway alone (nothing stored)',
  command: process.execPath,
  args: [path.join(root, 'bench/gatewayAlone.ts')],
  request,
});

export interface TurnFigures {
  /** Requests answered per second under the load. */
  rps: number;
  /** The server process's CPU time per request answered, in ms: steadier than its throughput on a shared machine. */
  cpuMsPerRequest: number;
  /** The same by thread name (threadCpuMs): the main thread, V8's garbage-collection helpers, the SQLite writer. */
  threadMsPerRequest: Record<string, number>;
  /** Seconds from the end of the load until the work behind the answers was done (0 for a server that leaves none). */
  drainS: number;
  /** Requests whose work was all done per second: those answered over the load's time and the drain's. */
  sustainedRps: number;
  /** CPU per request answered, in ms, over the load and the drain: what each request cost in all. */
  cpuMsPerRequestDrained: number;
  /** The same by thread. */
  threadMsPerRequestDrained: Record<string, number>;
  /**
   * Where the server reports it: its main thread's event loop busy time per request under the load,
   * in ms, and the share of the load's time it was busy (near 1, the loop is the limit).
   */
  loop?: { busyMsPerRequest: number; utilisation: number };
}

/**
 * Every turn BENCH_ROUNDS times, in turn, each on a fresh server and data directory with the LMX
 * sandbox of the run, so no turn inherits another's data or carrier backlog. Each is loaded for
 * BENCH_WARMUP_S seconds (3) before it is measured. Resolves with the rows, the medians of each
 * turn, and each turn's figures round by round (for ratios of two turns taken within each round).
 * With BENCH_CPU_PROF=<dir>, each server runs under V8's CPU profiler (`node --cpu-prof`, through
 * NODE_OPTIONS), and each turn prints where its main thread's time went over the measured load
 * (cpuProfile.ts) and writes it to <dir>/<turn>-round<N>/shares.json beside the profile. The
 * profiler costs CPU of its own: such a run's req/s and CPU figures are not for comparison.
 */
export async function turns(
  list: Turn[],
  sandboxUrl: string,
  load_: { connections: number; duration: number },
): Promise<{ rows: Row[]; medians: Map<string, TurnFigures>; rounds: Map<string, TurnFigures[]> }> {
  const { connections, duration } = load_;
  const rounds = Number(process.env.BENCH_ROUNDS ?? 3);
  const warmup = Number(process.env.BENCH_WARMUP_S ?? 3);
  const rows: Row[] = [];
  const figures = new Map<string, TurnFigures[]>(list.map((t) => [t.name, []]));
  const perRequest = (ms: number, requests: number) => round(ms / Math.max(1, requests), 3);
  /** CPU per request by thread since `before`, threads that did nothing left out. */
  const threadsSince = (pid: number, before: Map<string, number>, requests: number) =>
    Object.fromEntries(
      [...threadCpuMs(pid)]
        .map(([name, ms]) => [name, perRequest(ms - (before.get(name) ?? 0), requests)] as const)
        .filter(([, ms]) => ms > 0),
    );
  /** Seconds until the server's subscriptions have caught up; a turn whose subscriptions never do fails. */
  const drain = async (turn: Turn, backlog: () => Promise<CheckpointLag>): Promise<number> => {
    const seconds = await subscriptionsCaughtUp(backlog, DRAIN_TIMEOUT_MS);
    if (seconds === undefined)
      throw new Error(`${turn.name}: the subscriptions did not catch up within ${DRAIN_TIMEOUT_MS / 1000} s`);
    return seconds;
  };
  const profiles = process.env.BENCH_CPU_PROF;
  for (let round = 1; round <= rounds; round++) {
    for (const turn of list) {
      const dataDir = mkdtempSync(path.join(tmpdir(), 'parcel-bench-turn-'));
      const port = '18083';
      const profileDir = profiles && path.resolve(profiles, `${slug(turn.name)}-round${round}`);
      if (profileDir) mkdirSync(profileDir, { recursive: true });
      let loadWindow: Window | undefined;
      const server = startProcess(
        turn.args,
        {
          PORT: port,
          HOST: '127.0.0.1',
          PARCEL_DATA_DIR: dataDir,
          LOG_LEVEL: 'warn',
          PARCEL_LMX_URL: sandboxUrl,
          // On, so the rate-limit headers are sent, but never limiting.
          PARCEL_RATE_LIMIT_RPS: '1000000000',
          PARCEL_RATE_LIMIT_BURST: '1000000000',
          ...turn.env,
          ...(profileDir
            ? {
                NODE_OPTIONS:
                  `${process.env.NODE_OPTIONS ?? ''} --cpu-prof --cpu-prof-dir=${profileDir} --cpu-prof-interval=500`.trim(),
              }
            : {}),
        },
        turn.command,
      );
      try {
        await waitForHttp(`http://127.0.0.1:${port}/healthz`, 120_000);
        // Not counted: the first seconds compile the hot path and fill what a running service keeps
        // warm (the pool of keyed tracking numbers, caches); the turn measures the steady state.
        const backlog = turn.backlog?.(dataDir);
        if (warmup > 0) {
          await load(`${turn.name} (warm-up)`, {
            url: `http://127.0.0.1:${port}`,
            connections,
            duration: warmup,
            requests: [turn.request],
          });
          // Nor is the warm-up's own backlog: the measured load starts with nothing behind it.
          if (backlog) await drain(turn, backlog);
        }
        const url = `http://127.0.0.1:${port}`;
        const busyBefore = turn.loopMetrics ? await loopBusySeconds(url) : undefined;
        const cpuBefore = processCpuMs(server.pid!);
        const threadsBefore = threadCpuMs(server.pid!);
        const fromUs = monotonicUs();
        const row = await load(`${turn.name} (round ${round})`, {
          url,
          connections,
          duration,
          requests: [turn.request],
        });
        loadWindow = { fromUs, toUs: monotonicUs() };
        const loadS = (loadWindow.toUs - loadWindow.fromUs) / 1e6;
        const cpuMsPerRequest = perRequest(processCpuMs(server.pid!) - cpuBefore, row.requests);
        const threadMsPerRequest = threadsSince(server.pid!, threadsBefore, row.requests);
        const busyAfter = busyBefore === undefined ? undefined : await loopBusySeconds(url);
        const loop =
          busyBefore === undefined || busyAfter === undefined
            ? undefined
            : {
                busyMsPerRequest: perRequest((busyAfter - busyBefore) * 1000, row.requests),
                utilisation: Math.round(((busyAfter - busyBefore) / loadS) * 1000) / 1000,
              };
        let drained = {
          drainS: 0,
          cpuMsPerRequestDrained: cpuMsPerRequest,
          threadMsPerRequestDrained: threadMsPerRequest,
        };
        if (backlog) {
          drained = {
            drainS: await drain(turn, backlog),
            cpuMsPerRequestDrained: perRequest(processCpuMs(server.pid!) - cpuBefore, row.requests),
            threadMsPerRequestDrained: threadsSince(server.pid!, threadsBefore, row.requests),
          };
        }
        const sustainedRps = Math.round(row.requests / (duration + drained.drainS));
        rows.push({ ...row, serverCpuMsPerRequest: cpuMsPerRequest });
        figures.get(turn.name)!.push({
          rps: row.rps,
          cpuMsPerRequest,
          threadMsPerRequest,
          sustainedRps,
          ...drained,
          ...(loop ? { loop } : {}),
        });
        const byThread = (t: Record<string, number>) =>
          Object.entries(t)
            .map(([name, ms]) => `${name} ${ms}`)
            .join(', ');
        console.log(
          `${row.name}: ${cpuMsPerRequest} ms of the server's CPU per request (${byThread(threadMsPerRequest)})` +
            (loop
              ? `; its main event loop busy ${loop.busyMsPerRequest} ms per request, ${Math.round(loop.utilisation * 100)} % of the time`
              : '') +
            (backlog
              ? `; its subscriptions caught up ${drained.drainS} s after the load: ${sustainedRps} requests/s done in all, ` +
                `${drained.cpuMsPerRequestDrained} ms of CPU per request with the drain (${byThread(drained.threadMsPerRequestDrained)})`
              : ''),
        );
      } finally {
        await stopProcess(server);
        rmSync(dataDir, { recursive: true, force: true });
      }
      if (profileDir && loadWindow) printProfile(`${turn.name} (round ${round})`, profileDir, server.pid!, loadWindow);
    }
  }
  const medianOf = (list: TurnFigures[]): TurnFigures => {
    const threads = (of: (f: TurnFigures) => Record<string, number>) =>
      Object.fromEntries(
        [...new Set(list.flatMap((f) => Object.keys(of(f))))].map((name) => [
          name,
          median(list.map((f) => of(f)[name] ?? 0)),
        ]),
      );
    return {
      rps: median(list.map((f) => f.rps)),
      cpuMsPerRequest: median(list.map((f) => f.cpuMsPerRequest)),
      threadMsPerRequest: threads((f) => f.threadMsPerRequest),
      drainS: median(list.map((f) => f.drainS)),
      sustainedRps: median(list.map((f) => f.sustainedRps)),
      cpuMsPerRequestDrained: median(list.map((f) => f.cpuMsPerRequestDrained)),
      threadMsPerRequestDrained: threads((f) => f.threadMsPerRequestDrained),
      ...(list.every((f) => f.loop)
        ? {
            loop: {
              busyMsPerRequest: median(list.map((f) => f.loop!.busyMsPerRequest)),
              utilisation: median(list.map((f) => f.loop!.utilisation)),
            },
          }
        : {}),
    };
  };
  return { rows, medians: new Map([...figures].map(([name, list]) => [name, medianOf(list)])), rounds: figures };
}
