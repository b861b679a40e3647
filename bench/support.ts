/** Shared pieces of the benchmarks: child servers, autocannon runs, result tables. */
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { createInterface } from 'node:readline';
import path from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import pg from 'pg';
import autocannon from 'autocannon';
import { referenceStreamName } from '@parcel-logistics/contracts';
import { machineCpuMs } from './processCpu.ts';

export interface Row {
  name: string;
  requests: number;
  rps: number;
  p50: number;
  p99: number;
  non2xx: number;
  errors: number;
  /** The whole machine's CPU time during the run (the load generator included), in % of one core: 200 is a 2-core machine fully busy. */
  cpu: number;
  /** Where measured: the server process's own CPU time per request answered, in ms. */
  serverCpuMsPerRequest?: number;
}

/** Writes a benchmark's results to bench/results/<name>.json, stamped with the time and Node's version, and says where. */
export function writeResults(name: string, results: Record<string, unknown>): void {
  const dir = path.join(import.meta.dirname, 'results');
  mkdirSync(dir, { recursive: true });
  const out = path.join(dir, `${name}.json`);
  writeFileSync(out, JSON.stringify({ at: new Date().toISOString(), node: process.version, ...results }, null, 2));
  console.log(`wrote ${out}`);
}

/** `value` rounded to `places` decimals. */
export const round = (value: number, places: number): number => Math.round(value * 10 ** places) / 10 ** places;

/** The `p`th percentile of values sorted ascending (0 for none). */
export const percentile = (sorted: readonly number[], p: number): number =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;

export async function waitForHttp(url: string, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      if ((await fetch(url)).ok) return;
    } catch {
      // not up yet
    }
    if (Date.now() > deadline) throw new Error(`${url} did not come up`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** Starts `command args` (default: this Node) with extra environment; stdout is dropped. */
export function startProcess(args: string[], env: Record<string, string>, command = process.execPath): ChildProcess {
  const child = spawn(command, args, { env: { ...process.env, ...env }, stdio: ['ignore', 'ignore', 'inherit'] });
  child.on('exit', (code, signal) => {
    if (code !== 0 && signal === null) console.error(`${args.join(' ')} exited with ${code}`);
  });
  return child;
}

/**
 * `npm start` on `dataDir` (scripts/start.sh execs node, so the child's pid is the server's), on
 * 127.0.0.1, the rate limiter never limiting, logging warnings only; `env` sets the port and the rest.
 */
export function startNpmStart(dataDir: string, env: Record<string, string>): ChildProcess {
  return startProcess(
    [path.join(import.meta.dirname, '../scripts/start.sh')],
    { HOST: '127.0.0.1', PARCEL_DATA_DIR: dataDir, PARCEL_RATE_LIMIT_RPS: '0', LOG_LEVEL: 'warn', ...env },
    'bash',
  );
}

/**
 * The gateway alone (bench/gatewayAlone.ts: the HTTP tier with a bus handler that stores nothing) on
 * 127.0.0.1:`port`, the rate limiter off, logging warnings only; not yet answering.
 */
export function startGatewayAlone(port: string): ChildProcess {
  return startProcess([path.join(import.meta.dirname, 'gatewayAlone.ts')], {
    PORT: port,
    HOST: '127.0.0.1',
    PARCEL_RATE_LIMIT_RPS: '0',
    LOG_LEVEL: 'warn',
  });
}

/** The embedded stack on `dataDir` in a child process (bench/embeddedChild.ts), once it answers with its URL. */
export async function startEmbeddedChild(dataDir: string): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(process.execPath, [path.join(import.meta.dirname, 'embeddedChild.ts'), dataDir], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  // Its log lines (the warning of a master key generated into the data directory) come first.
  const url = await new Promise<string>((resolve, reject) => {
    const rl = createInterface({ input: child.stdout! });
    rl.on('line', (line) => {
      if (!line.startsWith('{')) return;
      const { url: listening } = JSON.parse(line) as { url?: string };
      if (listening) resolve(listening);
    });
    child.once('exit', (code) => reject(new Error(`embedded stack exited with ${code}`)));
  });
  return { child, url };
}

export async function stopProcess(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  const exited = new Promise((r) => child.once('exit', r));
  child.kill('SIGTERM');
  await Promise.race([exited, new Promise((r) => setTimeout(r, 5000))]);
  if (child.exitCode === null) child.kill('SIGKILL');
}

export function rssMb(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
  return Math.round((kb / 1024) * 10) / 10;
}

export async function load(name: string, options: autocannon.Options): Promise<Row> {
  const before = machineCpuMs();
  const result = await autocannon({ ...options });
  const after = machineCpuMs();
  const cores = availableParallelism();
  return {
    name,
    requests: result.requests.total,
    rps: Math.round(result.requests.average),
    p50: result.latency.p50,
    p99: result.latency.p99,
    non2xx: result.non2xx,
    errors: result.errors + result.timeouts,
    cpu: Math.round(((after.busy - before.busy) / Math.max(1, after.total - before.total)) * cores * 100),
  };
}

/** A table with its first column left-aligned and the others right-aligned. */
export function printColumns(header: string[], lines: string[][]): void {
  const widths = header.map((h, i) => Math.max(h.length, ...lines.map((l) => l[i]!.length)));
  const fmt = (cells: string[]) =>
    cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join('  ');
  console.log(fmt(header));
  for (const l of lines) console.log(fmt(l));
}

/** The rows; a column of the server's CPU per request when some row has it. */
export function printTable(rows: Row[]): void {
  const serverCpu = rows.some((r) => r.serverCpuMsPerRequest !== undefined);
  const header = [
    'benchmark',
    'requests',
    'req/s',
    'p50 ms',
    'p99 ms',
    'non-2xx',
    'errors',
    'cpu %',
    ...(serverCpu ? ['server cpu ms/req'] : []),
  ];
  const cells = (r: Row) => [
    r.name,
    r.requests,
    r.rps,
    r.p50,
    r.p99,
    r.non2xx,
    r.errors,
    r.cpu,
    ...(serverCpu ? [r.serverCpuMsPerRequest ?? ''] : []),
  ];
  printColumns(
    header,
    rows.map((r) => cells(r).map(String)),
  );
}

/** How many subscription checkpoints an event store holds, and how many are behind its log's head. */
export interface CheckpointLag {
  stored: number;
  behind: number;
}

/** The same question of both stores' `events` and `checkpoints` tables; `schema` for PostgreSQL's. */
const checkpointLagSql = (schema?: string) => {
  const table = (name: string) => (schema ? `"${schema}".${name}` : name);
  return `SELECT COUNT(*) AS stored,
    COUNT(*) FILTER (WHERE position < (SELECT COALESCE(MAX(global_position), 0) FROM ${table('events')})) AS behind
    FROM ${table('checkpoints')}`;
};

/** The embedded stack's SQLite event store, read from a second connection while it runs. */
export function sqliteCheckpointLag(file: string): () => Promise<CheckpointLag> {
  return async () => {
    const db = new DatabaseSync(file, { readOnly: true });
    try {
      const row = db.prepare(checkpointLagSql()).get() as { stored: number; behind: number };
      return { stored: Number(row.stored), behind: Number(row.behind) };
    } finally {
      db.close();
    }
  };
}

/** A distributed cluster's PostgreSQL event store (its schema). */
export function postgresCheckpointLag(connectionString: string, schema: string): () => Promise<CheckpointLag> {
  return async () => {
    const db = new pg.Client({ connectionString });
    await db.connect();
    try {
      const { rows } = await db.query<{ stored: string; behind: string }>(checkpointLagSql(schema));
      return { stored: Number(rows[0]!.stored), behind: Number(rows[0]!.behind) };
    } finally {
      await db.end();
    }
  };
}

/**
 * How many reference claims each of the demo account's `refs` has in a distributed stack's event
 * store (its schema): 1 for an order stored, 0 for none. What a bench holds its answers against.
 */
export async function referenceClaims(
  connectionString: string,
  schema: string,
  refs: readonly string[],
): Promise<Map<string, number>> {
  const refOf = new Map(refs.map((ref) => [referenceStreamName('demo', ref), ref]));
  const db = new pg.Client({ connectionString });
  await db.connect();
  try {
    const { rows } = await db.query<{ stream_name: string; n: string }>(
      `SELECT stream_name, count(*)::text AS n FROM "${schema}".events
        WHERE type = 'ReferenceClaimed.v1' AND stream_name = ANY($1) GROUP BY stream_name`,
      [[...refOf.keys()]],
    );
    return new Map(rows.map((r) => [refOf.get(r.stream_name)!, Number(r.n)]));
  } finally {
    await db.end();
  }
}

/**
 * Waits until every subscription's stored checkpoint has reached the head of the log: the work
 * that follows the orders of an earlier run (carrier registration, projections, the downstream
 * publisher) is done and does not weigh on the next measurement. The head moves while they work
 * (registrations are appended too), so it is read again each time. Resolves with the seconds it
 * took, or undefined when `timeoutMs` passed first.
 */
export async function subscriptionsCaughtUp(
  lag: () => Promise<CheckpointLag>,
  timeoutMs: number,
): Promise<number | undefined> {
  const started = Date.now();
  for (;;) {
    const { stored, behind } = await lag();
    if (stored > 0 && behind === 0) return Math.round((Date.now() - started) / 100) / 10;
    if (Date.now() - started > timeoutMs) return undefined;
    await new Promise((r) => setTimeout(r, 250));
  }
}
