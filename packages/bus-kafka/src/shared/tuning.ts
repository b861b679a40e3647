/** Consumer timing shared by both Kafka adapters (kafkajs and @platformatic/kafka). */

/**
 * Heartbeats every 3 s (Kafka's default; the session is 10 s): a member learns of a rebalance at
 * its next heartbeat, so a joining process gets its partitions within a few seconds. Each heartbeat
 * and each idle fetch wakes the member and the broker: with heartbeats once a second the idle
 * distributed stack spent 27 to 36 ms of CPU per second, of which Kafka's JVM 10 to 14 (the target
 * was 30 at most). A fetch returns as soon as a record arrives, so its wait only sets how often an
 * idle member asks again (a quarter of a core for the idle stack at 50 ms, half as much at 250 ms).
 */
const HEARTBEAT_INTERVAL_MS = 3_000;
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

export function groupTiming(drainTimeoutMs = 10_000): GroupTiming {
  return {
    sessionTimeoutMs: 10_000,
    rebalanceTimeoutMs: 30_000,
    heartbeatIntervalMs: HEARTBEAT_INTERVAL_MS,
    maxWaitTimeMs: FETCH_MAX_WAIT_MS,
    // One OffsetCommit request a second per consumer while records flow, instead of one per batch.
    commitIntervalMs: 1_000,
    finalCommitTimeoutMs: 2_000,
    startTimeoutMs: 30_000,
    drainTimeoutMs,
  };
}
