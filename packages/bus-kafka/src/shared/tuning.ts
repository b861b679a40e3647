/** Consumer timing shared by both Kafka adapters (kafkajs and @platformatic/kafka). */

/**
 * Failover sets the session: a member that dies (kill -9, a lost machine) keeps its partitions until
 * the broker has heard nothing from it for the session's length, and the commands keyed to them
 * wait that long. A 1.5 s session with heartbeats every 500 ms hands a dead order process's
 * partitions to the others within about 2 s (the broker must allow it: its
 * `group.min.session.timeout.ms`, 6 s by default, is 1 s in infra/up.sh and docker-compose.yml);
 * a member learns of a rebalance at its next heartbeat. The price is idle CPU: each heartbeat
 * wakes the member and the broker (heartbeats once a second cost the idle distributed stack 27 to
 * 36 ms of CPU per second against 3 s, and every 500 ms costs more; the idle stack's CPU today is
 * in docs/benchmarks.md, the distributed stack).
 * `PARCEL_KAFKA_SESSION_TIMEOUT_MS` trades one for the other. A fetch returns as soon as a record
 * arrives, so its wait only sets how often an idle member asks again.
 */
export const DEFAULT_SESSION_TIMEOUT_MS = 1_500;
/** A third of the session, as Kafka advises, and at least 100 ms. */
export const heartbeatFor = (sessionTimeoutMs: number): number => Math.max(100, Math.floor(sessionTimeoutMs / 3));
const FETCH_MAX_WAIT_MS = 1_000;

/** How a consumer group member of either adapter keeps time. */
export interface MemberTiming {
  heartbeatIntervalMs: number;
  /** How often done offsets are committed while records flow (nothing is sent while idle). */
  commitIntervalMs: number;
  /** How long stopping waits for the last commit of what is done. */
  finalCommitTimeoutMs: number;
  /** How long to wait for the first join and fetch before giving up. */
  startTimeoutMs: number;
  /** How long a draining stop waits for running handlers before abandoning them. */
  drainTimeoutMs: number;
}

/** The group settings both adapters give their client. */
export interface GroupTiming extends MemberTiming {
  sessionTimeoutMs: number;
  rebalanceTimeoutMs: number;
  /** How long a fetch waits for a first record. */
  maxWaitTimeMs: number;
}

export function groupTiming(drainTimeoutMs = 10_000, sessionTimeoutMs = DEFAULT_SESSION_TIMEOUT_MS): GroupTiming {
  return {
    sessionTimeoutMs,
    rebalanceTimeoutMs: 30_000,
    heartbeatIntervalMs: heartbeatFor(sessionTimeoutMs),
    maxWaitTimeMs: FETCH_MAX_WAIT_MS,
    // One OffsetCommit request a second per consumer while records flow, instead of one per batch.
    commitIntervalMs: 1_000,
    finalCommitTimeoutMs: 2_000,
    startTimeoutMs: 30_000,
    drainTimeoutMs,
  };
}
