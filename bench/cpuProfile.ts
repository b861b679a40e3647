/**
 * Where a server's main thread spends its time, from a V8 CPU profile (`node --cpu-prof`): each
 * sample is given to the code that owns its innermost frame, a workspace package (`packages/keys`)
 * or an npm package (`express`); a frame of Node itself (`node:` modules and native functions) is
 * given to its nearest caller that is not, so that a cipher's native work counts for the package
 * that ciphers. Idle time, garbage collection and V8's own work (`(program)`) keep their names.
 * Only the samples taken within a window (the load, in the monotonic clock that both V8's profiler
 * and `process.hrtime` read) are counted, so that start-up and warm-up stay out.
 */
import { readFileSync } from 'node:fs';

interface CallFrame {
  functionName: string;
  url: string;
  lineNumber: number;
}

interface ProfileNode {
  id: number;
  callFrame: CallFrame;
  children?: number[];
}

interface CpuProfile {
  nodes: ProfileNode[];
  /** Microseconds. */
  startTime: number;
  samples: number[];
  /** Microseconds from the sample before (the first: from startTime). */
  timeDeltas: number[];
}

/** A window of the monotonic clock, in microseconds (`process.hrtime.bigint() / 1000n`). */
export interface Window {
  fromUs: number;
  toUs: number;
}

export interface Share {
  name: string;
  pct: number;
}

export interface ProfileShares {
  /** Samples counted (those within the window). */
  samples: number;
  /** Per cent of the samples counted, by owner, largest first. */
  owners: Share[];
  /** Per cent of the samples counted, by the function of the project that the sample's work is given to, largest first. */
  functions: Share[];
}

const VM_STATES = new Set(['(idle)', '(garbage collector)', '(program)', '(root)']);

/** Who owns the code of a frame: `packages/x`, `services/x`, `bench`, an npm package; undefined for Node's own code. */
function ownerOf(url: string): string | undefined {
  if (url === '' || url.startsWith('node:')) return undefined;
  const npm = /node_modules\/(?:\.pnpm\/[^/]+\/node_modules\/)?((?:@[^/]+\/)?[^/]+)\//.exec(url);
  if (npm) return npm[1]!;
  const own = /\/((?:packages|services)\/[^/]+|bench)\//.exec(url);
  return own ? own[1]! : url;
}

const functionOf = (frame: CallFrame): string =>
  `${frame.url.replace(/^.*\/((?:packages|services)\/|bench\/)/, '$1')}:${frame.functionName || '(anonymous)'}:${frame.lineNumber + 1}`;

const shares = (counts: Map<string, number>, total: number): Share[] =>
  [...counts]
    .sort((a, b) => b[1] - a[1])
    .map(([name, n]) => ({ name, pct: Math.round((n / Math.max(1, total)) * 1000) / 10 }));

export function profileShares(file: string, window?: Window): ProfileShares {
  const profile = JSON.parse(readFileSync(file, 'utf8')) as CpuProfile;
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const parentOf = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parentOf.set(child, node.id);
  const owners = new Map<string, number>();
  const functions = new Map<string, number>();
  const add = (counts: Map<string, number>, key: string) => counts.set(key, (counts.get(key) ?? 0) + 1);
  let at = profile.startTime;
  let counted = 0;
  for (const [i, sample] of profile.samples.entries()) {
    at += profile.timeDeltas[i] ?? 0;
    if (window && (at < window.fromUs || at > window.toUs)) continue;
    counted++;
    const leaf = byId.get(sample)!;
    if (VM_STATES.has(leaf.callFrame.functionName)) {
      add(owners, leaf.callFrame.functionName);
      continue;
    }
    let id: number | undefined = sample;
    while (id !== undefined && ownerOf(byId.get(id)!.callFrame.url) === undefined) id = parentOf.get(id);
    if (id === undefined) {
      add(owners, '(Node, no caller of ours)');
      continue;
    }
    const frame = byId.get(id)!.callFrame;
    const owner = ownerOf(frame.url)!;
    add(owners, owner);
    if (/^(packages|services)\//.test(owner)) add(functions, functionOf(frame));
  }
  return { samples: counted, owners: shares(owners, counted), functions: shares(functions, counted) };
}
