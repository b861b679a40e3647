/**
 * Whom PostgreSQL's CPU served, for bench/distributed.bench.ts. Every PostgreSQL process is counted
 * as one row of the stack's costs (bench/stackCpu.ts); this splits that time by connection: each
 * backend's CPU between two readings goes to the stack process at the other end of its connection,
 * with the application name the connection gave (`parcel-eventstore`, `parcel-keys`, ...); the
 * server's own helpers (checkpointer, WAL writer, autovacuum) go under their kind. A backend that
 * exited in between is counted in its parent's reaped time, so under the postmaster.
 */
import pg from 'pg';
import { connectionOwners } from './processCpu.ts';
import type { Counted, CpuReading } from './processCpu.ts';
import { printColumns, round } from './support.ts';

export interface PostgresServed {
  /** `<stack process> <application name>`, a helper's kind, or the postmaster. */
  served: string;
  cpuMsPerOrder: number;
}

interface Activity {
  pid: number;
  backend_type: string;
  application_name: string;
  client_port: number | null;
}

/** Whom each PostgreSQL process serves now: its pid, to a name for its rows (see `postgresByClient`). */
export type PostgresConnections = Map<number, string>;

/**
 * Whom each PostgreSQL process serves, read while the stack is still running and right after the
 * second CPU reading: a pool closes its idle connections after a while, and a backend that exited
 * is known only as part of the postmaster's time.
 */
export async function postgresConnections(pgUrl: string, stack: Counted[]): Promise<PostgresConnections> {
  const client = new pg.Client({ connectionString: pgUrl, application_name: 'parcel-bench' });
  await client.connect();
  let activity: Activity[];
  try {
    activity = (
      await client.query<Activity>('SELECT pid, backend_type, application_name, client_port FROM pg_stat_activity')
    ).rows;
  } finally {
    await client.end();
  }
  const serverPort = Number(new URL(pgUrl).port || 5432);
  const names = new Map(stack.flatMap((p) => p.find().map((pid) => [pid, p.name] as const)));
  if (!names.has(process.pid)) names.set(process.pid, 'the bench');
  const owners = connectionOwners([...names.keys()], serverPort);
  const served: PostgresConnections = new Map();
  for (const a of activity) {
    if (a.backend_type !== 'client backend') served.set(a.pid, a.backend_type);
    else {
      const owner = a.client_port && a.client_port > 0 ? owners.get(a.client_port) : undefined;
      served.set(a.pid, `${owner === undefined ? 'another client' : names.get(owner)} ${a.application_name}`.trim());
    }
  }
  return served;
}

/** The PostgreSQL time of `group` (the name of its row in the readings) between `before` and `after`, by whom it served, ms per order, largest first. */
export function postgresByClient(
  served: PostgresConnections,
  group: string,
  before: CpuReading,
  after: CpuReading,
  orders: number,
): PostgresServed[] {
  const then = before.get(group) ?? new Map();
  const byWhom = new Map<string, number>();
  for (const [pid, now] of after.get(group) ?? []) {
    const earlier = then.get(pid);
    const ms = now.cpuMs - (earlier?.start === now.start ? earlier.cpuMs : 0);
    const whom = served.get(pid) ?? 'the postmaster (and the backends that exited)';
    byWhom.set(whom, (byWhom.get(whom) ?? 0) + ms);
  }
  return [...byWhom]
    .map(([whom, ms]) => ({ served: whom, cpuMsPerOrder: round(ms / Math.max(1, orders), 3) }))
    .filter((row) => row.cpuMsPerOrder > 0)
    .sort((a, b) => b.cpuMsPerOrder - a.cpuMsPerOrder);
}

export function printPostgresByClient(rows: PostgresServed[]): void {
  printColumns(
    ['PostgreSQL served', 'cpu ms/order'],
    rows.map((r) => [r.served, String(r.cpuMsPerOrder)]),
  );
}
