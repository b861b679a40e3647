/**
 * CPU time of processes, read from /proc: steadier than throughput on a shared machine, and it
 * shows where the time goes. A process's `/proc/<pid>/stat` counts all its threads, those that have
 * ended included, and the children it has reaped; listing /proc gives processes, not their threads.
 * Processes may exit between listing and reading: they are skipped, never an error.
 */
import { readdirSync, readFileSync, readlinkSync } from 'node:fs';

/** Clock ticks per second of `/proc/<pid>/stat` (USER_HZ, 100 on Linux). */
const TICK_MS = 10;

interface ProcStat {
  comm: string;
  ppid: number;
  /** When it started, in ticks since boot: a pid reused by another process differs here. */
  start: number;
  /** Its own CPU time (user + system) and that of the children it has reaped, in ms. */
  cpuMs: number;
}

/** One process's `/proc/<pid>/stat`, or undefined once it has gone. */
function procStat(pid: number): ProcStat | undefined {
  let line: string;
  try {
    line = readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return undefined;
  }
  // The command name (field 2) may hold spaces and parentheses; the fields after its last ')' do not.
  const close = line.lastIndexOf(')');
  const f = line
    .slice(close + 2)
    .split(' ')
    .map(Number); // f[0] is field 3
  const [utime, stime, cutime, cstime] = [f[11]!, f[12]!, f[13]!, f[14]!];
  return {
    comm: line.slice(line.indexOf('(') + 1, close),
    ppid: f[1]!,
    start: f[19]!,
    cpuMs: (utime + stime + cutime + cstime) * TICK_MS,
  };
}

/** CPU time one process (all its threads) has used so far, in milliseconds. */
export function processCpuMs(pid: number): number {
  const stat = procStat(pid);
  if (!stat) throw new Error(`process ${pid} has exited`);
  return stat.cpuMs;
}

/**
 * CPU time of one process's live threads so far, in ms, summed by thread name with any trailing
 * number dropped (`V8Worker` for V8's helper threads, which run the parallel and concurrent parts of
 * garbage collection; `WorkerThread` for a worker_threads Worker; `MainThread`). Threads that have
 * ended are not listed: the reading is for a process whose threads live as long as it does.
 */
export function threadCpuMs(pid: number): Map<string, number> {
  const byName = new Map<string, number>();
  let tids: string[];
  try {
    tids = readdirSync(`/proc/${pid}/task`);
  } catch {
    return byName;
  }
  for (const tid of tids) {
    let line: string;
    try {
      line = readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8');
    } catch {
      continue;
    }
    const close = line.lastIndexOf(')');
    const f = line
      .slice(close + 2)
      .split(' ')
      .map(Number);
    const name = line.slice(line.indexOf('(') + 1, close).replace(/\d+$/, '');
    byName.set(name, (byName.get(name) ?? 0) + (f[11]! + f[12]!) * TICK_MS);
  }
  return byName;
}

const allPids = (): number[] =>
  readdirSync('/proc')
    .filter((name) => /^\d+$/.test(name))
    .map(Number);

/** Every process whose command name is `comm` (PostgreSQL's are all `postgres`). */
export const processesNamed = (comm: string): number[] => allPids().filter((pid) => procStat(pid)?.comm === comm);

/**
 * The TCP sockets (IPv4 and IPv6) whose local port, remote port and state (hex, as in
 * /proc/net/tcp: `0A` listening, `01` established) `match` accepts: each one's inode, to its local port.
 */
function socketInodes(match: (localPort: number, remotePort: number, state: string) => boolean): Map<string, number> {
  const inodes = new Map<string, number>();
  const port = (address: string) => parseInt(address.split(':').at(-1)!, 16);
  for (const table of ['/proc/net/tcp', '/proc/net/tcp6']) {
    let lines: string[];
    try {
      lines = readFileSync(table, 'utf8').trim().split('\n').slice(1);
    } catch {
      continue;
    }
    for (const line of lines) {
      const f = line.trim().split(/\s+/);
      const local = port(f[1]!);
      if (match(local, port(f[2]!), f[3]!)) inodes.set(f[9]!, local);
    }
  }
  return inodes;
}

/** The sockets `pids` hold: each one's inode, to its holder (a process whose descriptors are not readable holds none). */
function socketsHeld(pids: readonly number[]): Map<string, number> {
  const held = new Map<string, number>();
  for (const pid of pids) {
    let fds: string[];
    try {
      fds = readdirSync(`/proc/${pid}/fd`);
    } catch {
      continue;
    }
    for (const fd of fds) {
      try {
        const inode = /^socket:\[(\d+)\]$/.exec(readlinkSync(`/proc/${pid}/fd/${fd}`))?.[1];
        if (inode) held.set(inode, pid);
      } catch {
        // closed meanwhile
      }
    }
  }
  return held;
}

/**
 * The `comm` process listening on TCP `port`: the server this machine answers with there, whichever
 * checkout's infra/up.sh started it. Undefined when none is found (or its sockets are not readable).
 */
export function listeningProcess(comm: string, port: number): number | undefined {
  const held = socketsHeld(processesNamed(comm));
  const listening = socketInodes((local, _remote, state) => state === '0A' && local === port);
  return [...listening.keys()].map((inode) => held.get(inode)).find((pid) => pid !== undefined);
}

/**
 * Which of `pids` hold the client ends of the established TCP connections to `serverPort` on this
 * machine: each connection's local port (the port the server sees it from, such as a database
 * connection's), to its holder. One reading of the socket tables and of each process's descriptors.
 */
export function connectionOwners(pids: readonly number[], serverPort: number): Map<number, number> {
  const held = socketsHeld(pids);
  const owners = new Map<number, number>();
  for (const [inode, local] of socketInodes((_local, remote, state) => state === '01' && remote === serverPort)) {
    const pid = held.get(inode);
    if (pid !== undefined) owners.set(local, pid);
  }
  return owners;
}

/** Processes whose CPU is counted together under one name; `find` is asked again at each reading, as members come and go. */
export interface Counted {
  name: string;
  find: () => number[];
}

/** Each group's members at one moment. */
export type CpuReading = Map<string, Map<number, ProcStat>>;

export function readCpu(groups: Counted[]): CpuReading {
  const reading: CpuReading = new Map();
  for (const group of groups) {
    const members = new Map<number, ProcStat>();
    for (const pid of group.find()) {
      const stat = procStat(pid);
      if (stat) members.set(pid, stat);
    }
    reading.set(group.name, members);
  }
  return reading;
}

export interface CpuSpent {
  ms: number;
  /** Its members at the second reading. */
  processes: number;
  /** Members that exited between the readings without a member reaping them: their time after the first reading is missing. */
  lost: number;
}

/**
 * The CPU time each group used between two readings. A member that started in between counts in
 * full. One that exited and was reaped by another member (a PostgreSQL backend, by the postmaster)
 * moved its time into that member's children's time, so its first reading is taken off; one that
 * nobody in the group reaped (a restarted broker) is left out, and counted in `lost`.
 */
export function cpuBetween(before: CpuReading, after: CpuReading): Map<string, CpuSpent> {
  return new Map(
    [...after].map(([name, now]) => {
      let ms = 0;
      let lost = 0;
      for (const stat of now.values()) ms += stat.cpuMs;
      for (const [pid, then] of before.get(name) ?? []) {
        if (now.get(pid)?.start === then.start || now.has(then.ppid)) ms -= then.cpuMs;
        else lost += 1;
      }
      return [name, { ms, processes: now.size, lost }];
    }),
  );
}

/**
 * The whole machine's CPU time so far, every core, ms, from /proc/stat. `busy` is the time its cores
 * ran work (user, nice, system, irq, softirq): what nothing escapes, to hold the processes counted
 * against. It leaves out idle, iowait and `steal`, the time the hypervisor gave this machine's
 * cores to another guest: on a shared host that comes and goes with the neighbours, and none of
 * it is work done here (counted as busy, it would be charged to whatever ran meanwhile).
 */
export function machineCpuMs(): { busy: number; steal: number; total: number } {
  const fields = readFileSync('/proc/stat', 'utf8').split('\n', 1)[0]!.trim().split(/\s+/).slice(1, 9).map(Number);
  const total = fields.reduce((a, b) => a + b, 0);
  const [idle, iowait, steal] = [fields[3]!, fields[4]!, fields[7] ?? 0];
  return { busy: (total - idle - iowait - steal) * TICK_MS, steal: steal * TICK_MS, total: total * TICK_MS };
}

export const machineBusyMs = (): number => machineCpuMs().busy;
