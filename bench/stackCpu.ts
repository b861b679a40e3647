/**
 * What the distributed stack's processes cost, for bench/distributed.bench.ts: each Node process of
 * the stack, the two JVMs (Kafka, mongo-java-server) and every PostgreSQL process, read from
 * /proc (bench/processCpu.ts). The load generator, the bench's own process, is not among them.
 * The JVMs are the ones listening on the ports this run uses, whichever checkout's infra/up.sh
 * started them. PostgreSQL is the machine's own cluster: every process named `postgres` counts,
 * on the understanding that nothing else uses it during a bench; its backends come and go, and
 * those that exit are counted through the postmaster that reaps them.
 */
import type { ServiceName, Stack } from '@parcel-logistics/stack';
import { listeningProcess, processesNamed, threadCpuMs } from './processCpu.ts';
import type { Counted, CpuSpent } from './processCpu.ts';
import { printColumns, round } from './support.ts';

const KINDS: ServiceName[] = ['gateway', 'order', 'tracking', 'label', 'webhook', 'carrier-sandbox'];

/** The name of PostgreSQL's row: every process of the machine named `postgres`. */
export const POSTGRES = 'postgres (all processes)';

const found = (pid: number | undefined) => (pid === undefined ? [] : [pid]);

/** The stack's processes under readable names: gateway-1, gateway-2, order-1, order-2, tracking, label, the webhook instances if any, carrier-sandbox, then the JVMs and PostgreSQL. */
export function stackProcesses(stack: Stack, infra: { kafka: string; mongo: string }): Counted[] {
  const services = KINDS.flatMap((kind) => {
    const all = stack.processes.filter((p) => p.service === kind);
    return all.map((p, i) => ({ name: all.length > 1 ? `${kind}-${i + 1}` : kind, find: () => found(p.child.pid) }));
  });
  const kafkaPort = Number(infra.kafka.split(',')[0]!.split(':').at(-1));
  const mongoPort = Number(new URL(infra.mongo).port);
  return [
    ...services,
    { name: 'kafka (JVM)', find: () => found(listeningProcess('java', kafkaPort)) },
    { name: 'mongo-java-server (JVM)', find: () => found(listeningProcess('java', mongoPort)) },
    { name: POSTGRES, find: () => processesNamed('postgres') },
  ];
}

/** The JVMs' rows of stackProcesses. */
const JVMS = ['kafka (JVM)', 'mongo-java-server (JVM)'];

/**
 * CPU time the JVMs' JIT compilers (their threads `C1 CompilerThread…` and `C2 CompilerThread…`)
 * have used so far, in ms. A JVM compiles its hot code during its first minutes of load, a cost a
 * long-running broker has paid long before: a measured run should find these threads quiet.
 */
export function jvmJitCpuMs(stack: Counted[]): number {
  let ms = 0;
  for (const jvm of stack.filter((p) => JVMS.includes(p.name))) {
    for (const pid of jvm.find()) {
      for (const [name, threadMs] of threadCpuMs(pid)) if (/^C[12] CompilerThre/.test(name)) ms += threadMs;
    }
  }
  return ms;
}

/** Says which processes were not found, or exited between the readings: their figures are short. */
export function warnIncomplete(spent: Map<string, CpuSpent>, during: string): Map<string, CpuSpent> {
  for (const [name, s] of spent) {
    if (s.processes === 0) console.warn(`${name}: not found at the end of ${during}, not counted`);
    if (s.lost > 0) console.warn(`${name}: ${s.lost} process(es) exited during ${during}; their time is missing`);
  }
  return spent;
}

export interface ProcessCost {
  process: string;
  /** Its processes at the end of the loaded run: 1, or PostgreSQL's postmaster, helpers and backends. */
  processes: number;
  cpuMsPerOrder: number;
  /** Of the whole stack's CPU per order, in %. */
  sharePct: number;
  /** CPU with no load, ms per second. */
  idleCpuMsPerS: number;
}

/** Each process's CPU per order of the loaded run, its share, and its CPU per second of the idle one; the whole stack last. */
export function costs(
  loaded: Map<string, CpuSpent>,
  orders: number,
  idle: Map<string, CpuSpent>,
  idleS: number,
): ProcessCost[] {
  const sum = (spent: Map<string, CpuSpent>) => [...spent.values()].reduce((total, s) => total + s.ms, 0);
  const total = sum(loaded);
  const row = (process: string, processes: number, ms: number, idleMs: number): ProcessCost => ({
    process,
    processes,
    cpuMsPerOrder: round(ms / Math.max(1, orders), 3),
    sharePct: round((ms / Math.max(1, total)) * 100, 1),
    idleCpuMsPerS: round(idleMs / idleS, 1),
  });
  const rows = [...loaded].map(([name, spent]) => row(name, spent.processes, spent.ms, idle.get(name)?.ms ?? 0));
  return [
    ...rows,
    row(
      'the whole stack',
      rows.reduce((n, r) => n + r.processes, 0),
      total,
      sum(idle),
    ),
  ];
}

export function printCosts(rows: ProcessCost[]): void {
  printColumns(
    ['process', 'processes', 'cpu ms/order', 'share %', 'idle cpu ms/s'],
    rows.map((r) => [r.process, r.processes, r.cpuMsPerOrder, r.sharePct, r.idleCpuMsPerS].map(String)),
  );
}
