/**
 * Brute force, slowed then stopped (docs/operations.md, "Failed authentication"). Failures are
 * counted per API name (whether an account has it or not) and per client address. Past `free`
 * failures in a row, each further attempt must wait twice as long as the one before (1 s, 2 s,
 * 4 s, … at most a minute) after the last failure; at `lockAfter` failures the name or address is locked out for
 * `lockMs`. A locked-out attempt is refused before its credentials are looked at, so its answer
 * is the same whether the name exists or not. A success clears the name's count; counts end
 * `lockMs` after their last failure. Kept per gateway process, in memory.
 */
import type { Clock } from '@parcel-logistics/domain';

export interface LockoutPolicy {
  /** Failures in a row before attempts are slowed. */
  free: number;
  /** Failures in a row that lock out. */
  lockAfter: number;
  lockMs: number;
}

/** For one API name: a client that mistypes its key a few times is slowed at once. */
export const NAME_POLICY: LockoutPolicy = { free: 5, lockAfter: 10, lockMs: 15 * 60_000 };
/** For one address: it may stand for many clients (a company's NAT), so it has more room. */
export const ADDRESS_POLICY: LockoutPolicy = { free: 20, lockAfter: 40, lockMs: 15 * 60_000 };

/** The longest wait between slowed attempts, before the lockout. */
const MAX_WAIT_MS = 60_000;
/** Entries kept at most per kind; past it the oldest are forgotten. */
const MAX_ENTRIES = 100_000;

interface Count {
  failures: number;
  lastAt: number;
}

export interface Lockout {
  /** Seconds to wait before an attempt for these subjects is looked at; 0: go on. */
  retryAfterS(subjects: readonly Subject[]): number;
  failed(subjects: readonly Subject[]): void;
  succeeded(subjects: readonly Subject[]): void;
}

export type Subject = { kind: 'name' | 'address'; id: string };

/** No API name is longer; a longer one given is counted by its first characters, so an entry stays small. */
const ID_MAX = 128;

export function createLockout(clock: Clock, policies = { name: NAME_POLICY, address: ADDRESS_POLICY }): Lockout {
  const counts = { name: new Map<string, Count>(), address: new Map<string, Count>() };

  function waitMs({ kind, id }: Subject, now: number): number {
    const policy = policies[kind];
    const count = counts[kind].get(id.slice(0, ID_MAX));
    if (!count || now - count.lastAt >= policy.lockMs) return 0;
    if (count.failures >= policy.lockAfter) return count.lastAt + policy.lockMs - now;
    if (count.failures < policy.free) return 0;
    return Math.max(0, count.lastAt + Math.min(MAX_WAIT_MS, 1000 * 2 ** (count.failures - policy.free)) - now);
  }

  return {
    retryAfterS(subjects) {
      const now = clock.now().getTime();
      const ms = Math.max(0, ...subjects.map((s) => waitMs(s, now)));
      return ms === 0 ? 0 : Math.ceil(ms / 1000);
    },
    failed(subjects) {
      const now = clock.now().getTime();
      for (const { kind, id: given } of subjects) {
        const id = given.slice(0, ID_MAX);
        const map = counts[kind];
        const count = map.get(id);
        const fresh = !count || now - count.lastAt >= policies[kind].lockMs;
        map.delete(id);
        if (map.size >= MAX_ENTRIES) map.delete(map.keys().next().value!);
        map.set(id, { failures: fresh ? 1 : count.failures + 1, lastAt: now });
      }
    },
    succeeded(subjects) {
      for (const { kind, id } of subjects) if (kind === 'name') counts.name.delete(id.slice(0, ID_MAX));
    },
  };
}
