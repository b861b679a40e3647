/**
 * Turns of the foundation bench: servers started one after another on fresh data directories, each
 * driven by the same client for the same time, with the server's CPU per request read from /proc
 * (in total and by thread). Comparing turns of one run is what stays meaningful on a shared machine.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type autocannon from 'autocannon';
import { processCpuMs, threadCpuMs } from './processCpu.ts';
import { load, startProcess, stopProcess, waitForHttp } from './support.ts';
import type { Row } from './support.ts';

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
}

/** `npm start` of a checkout (scripts/start.sh execs node: the child's pid is the server's). */
export const embeddedTurn = (name: string, dir: string, request: autocannon.Request): Turn => ({
  name,
  command: 'bash',
  args: [path.join(dir, 'scripts/start.sh')],
  request,
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
  rps: number;
  /** The server process's CPU time per request answered, in ms: steadier than its throughput on a shared machine. */
  cpuMsPerRequest: number;
  /** The same by thread name (threadCpuMs): the main thread, V8's garbage-collection helpers, the SQLite writer. */
  threadMsPerRequest: Record<string, number>;
}

/**
 * Every turn BENCH_ROUNDS times, in turn, each on a fresh server and data directory with the LMX
 * sandbox of the run, so no turn inherits another's data or carrier backlog. Each is loaded for
 * BENCH_WARMUP_S seconds (3) before it is measured. Resolves with the rows and the medians of each turn.
 */
export async function turns(
  list: Turn[],
  sandboxUrl: string,
  load_: { connections: number; duration: number },
): Promise<{ rows: Row[]; medians: Map<string, TurnFigures> }> {
  const { connections, duration } = load_;
  const rounds = Number(process.env.BENCH_ROUNDS ?? 3);
  const warmup = Number(process.env.BENCH_WARMUP_S ?? 3);
  const rows: Row[] = [];
  const figures = new Map<string, TurnFigures[]>(list.map((t) => [t.name, []]));
  for (let round = 1; round <= rounds; round++) {
    for (const turn of list) {
      const dataDir = mkdtempSync(path.join(tmpdir(), 'parcel-bench-turn-'));
      const port = '18083';
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
        },
        turn.command,
      );
      try {
        await waitForHttp(`http://127.0.0.1:${port}/healthz`, 120_000);
        // Not counted: the first seconds compile the hot path and fill what a running service keeps
        // warm (the pool of keyed tracking numbers, caches); the turn measures the steady state.
        if (warmup > 0)
          await load(`${turn.name} (warm-up)`, {
            url: `http://127.0.0.1:${port}`,
            connections,
            duration: warmup,
            requests: [turn.request],
          });
        const cpuBefore = processCpuMs(server.pid!);
        const threadsBefore = threadCpuMs(server.pid!);
        const row = await load(`${turn.name} (round ${round})`, {
          url: `http://127.0.0.1:${port}`,
          connections,
          duration,
          requests: [turn.request],
        });
        const cpuMsPerRequest =
          Math.round(((processCpuMs(server.pid!) - cpuBefore) / Math.max(1, row.requests)) * 1000) / 1000;
        const perThread = [...threadCpuMs(server.pid!)]
          .map(
            ([name, ms]) =>
              [
                name,
                Math.round(((ms - (threadsBefore.get(name) ?? 0)) / Math.max(1, row.requests)) * 1000) / 1000,
              ] as const,
          )
          .filter(([, ms]) => ms > 0);
        rows.push({ ...row, serverCpuMsPerRequest: cpuMsPerRequest });
        figures
          .get(turn.name)!
          .push({ rps: row.rps, cpuMsPerRequest, threadMsPerRequest: Object.fromEntries(perThread) });
        console.log(
          `${row.name}: ${cpuMsPerRequest} ms of the server's CPU per request (${perThread.map(([name, ms]) => `${name} ${ms}`).join(', ')})`,
        );
      } finally {
        await stopProcess(server);
        rmSync(dataDir, { recursive: true, force: true });
      }
    }
  }
  const medianOf = (list: TurnFigures[]): TurnFigures => {
    const names = new Set(list.flatMap((f) => Object.keys(f.threadMsPerRequest)));
    return {
      rps: median(list.map((f) => f.rps)),
      cpuMsPerRequest: median(list.map((f) => f.cpuMsPerRequest)),
      threadMsPerRequest: Object.fromEntries(
        [...names].map((name) => [name, median(list.map((f) => f.threadMsPerRequest[name] ?? 0))]),
      ),
    };
  };
  return { rows, medians: new Map([...figures].map(([name, list]) => [name, medianOf(list)])) };
}
