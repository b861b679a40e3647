/**
 * The real `npm start` as a user runs it: `npm start` in the repository root, in a process group of
 * its own (`detached`), so a test can do what a terminal's Ctrl-C does (a signal to the whole group)
 * or what `kill <pid>` does (a signal to npm alone), and then look at what is left in /proc.
 */
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import net from 'node:net';
import path from 'node:path';

export const ROOT = path.resolve(import.meta.dirname, '../..');

export interface NpmStart {
  child: ChildProcess;
  /** npm's pid, also the id of the process group. */
  pid: number;
  url: string;
  /** The end of what the processes wrote, for failure messages. */
  output(): string;
  /** Everything the processes wrote so far, stdout and stderr. */
  fullOutput(): string;
  /**
   * Resolves once npm has exited and its output is read to the end: the last lines a process writes
   * before it exits may still be in the pipe when /proc already shows the group gone.
   */
  closed: Promise<void>;
}

/** A port nobody listens on right now (the OS's choice, from the ephemeral range). */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

/** Whether something accepts connections on 127.0.0.1:port. */
export function portOpen(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

/** The PATH for child processes: this Node (24) first, so scripts/tools.sh fetches nothing. */
export function childPath(): string {
  return `${path.dirname(process.execPath)}${path.delimiter}${process.env.PATH ?? ''}`;
}

/** Runs `npm start` with the given environment and resolves once /readyz answers 200. */
/** The environment of `npm start` on `dataDir` on free ports (its sandbox's too), webhooks to private addresses allowed; `env` besides. */
export async function npmStartEnv<E extends Record<string, string>>(dataDir: string, env: E) {
  return {
    PORT: String(await freePort()),
    PARCEL_SANDBOX_PORT: String(await freePort()),
    PARCEL_DATA_DIR: dataDir,
    PARCEL_WEBHOOK_ALLOW_PRIVATE: 'on',
    ...env,
  };
}

export async function npmStart(
  env: { PORT: string; PARCEL_SANDBOX_PORT: string; PARCEL_DATA_DIR: string } & Record<string, string>,
): Promise<NpmStart> {
  const child = spawn('npm', ['start'], {
    cwd: ROOT,
    env: { ...process.env, PATH: childPath(), ...env },
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const chunks: string[] = [];
  child.stdout!.on('data', (c: Buffer) => chunks.push(c.toString()));
  child.stderr!.on('data', (c: Buffer) => chunks.push(c.toString()));
  const closed = new Promise<void>((resolve) => child.once('close', () => resolve()));
  const fullOutput = () => chunks.join('');
  const output = () => fullOutput().slice(-4000);
  const url = `http://127.0.0.1:${env.PORT}`;
  const deadline = Date.now() + 120_000;
  for (;;) {
    if (child.exitCode !== null || child.signalCode !== null)
      throw new Error(`npm start exited before it was ready:\n${output()}`);
    if (Date.now() > deadline) throw new Error(`npm start was not ready within 120 s:\n${output()}`);
    const ready = await fetch(`${url}/readyz`).then(
      (r) => r.status === 200,
      () => false,
    );
    if (ready) break;
    await sleep(200);
  }
  return { child, pid: child.pid!, url, output, fullOutput, closed };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

interface Stat {
  pid: number;
  ppid: number;
  pgrp: number;
  state: string;
}

/** /proc/<pid>/stat of every process; the command name may hold spaces and parentheses, so fields are read after the last ')'. */
function processes(): Stat[] {
  const all: Stat[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    let stat: string;
    try {
      stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
    } catch {
      continue; // gone meanwhile
    }
    const [state = '', ppid = '0', pgrp = '0'] = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    all.push({ pid: Number(entry), ppid: Number(ppid), pgrp: Number(pgrp), state });
  }
  return all;
}

/** Live members of a process group (zombies count as gone: they have exited, only their exit status waits to be read). */
export const groupMembers = (pgid: number): number[] =>
  processes()
    .filter((p) => p.pgrp === pgid && p.state !== 'Z')
    .map((p) => p.pid);

/** Live children of a process. */
export const childrenOf = (pid: number): number[] =>
  processes()
    .filter((p) => p.ppid === pid && p.state !== 'Z')
    .map((p) => p.pid);

export function alive(pid: number): boolean {
  return processes().some((p) => p.pid === pid && p.state !== 'Z');
}

/** Polls until `done()` holds; false if it still does not after `ms`. */
export async function within(ms: number, done: () => boolean | Promise<boolean>): Promise<boolean> {
  const deadline = Date.now() + ms;
  for (;;) {
    if (await done()) return true;
    if (Date.now() > deadline) return false;
    await sleep(100);
  }
}

/** Last resort after a failed test: SIGKILL to whatever is left of the group. */
export function killGroup(pgid: number): void {
  try {
    process.kill(-pgid, 'SIGKILL');
  } catch {
    // nothing left
  }
}

/** Ctrl-C: SIGINT to the group, then SIGKILL to whatever is left after 15 s. */
export async function stopGroup(pgid: number): Promise<void> {
  try {
    process.kill(-pgid, 'SIGINT');
  } catch {
    return; // nothing left
  }
  if (!(await within(15_000, () => groupMembers(pgid).length === 0))) killGroup(pgid);
}
