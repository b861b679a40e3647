/** Consumer timing shared by both Kafka adapters (kafkajs and @platformatic/kafka). */

/**
 * Heartbeats every 3 s (Kafka's default; the session is 10 s): a member learns of a rebalance at
 * its next heartbeat, so a joining process gets its partitions within a few seconds. Each heartbeat
 * and each idle fetch wakes the member and the broker: with heartbeats once a second the idle
 * distributed stack spent 27 to 36 ms of CPU per second, of which Kafka's JVM 10 to 14 (issue 14's
 * bar is 30). A fetch returns as soon as a record arrives, so its wait only sets how often an idle
 * member asks again (a quarter of a core for the idle stack at 50 ms, half as much at 250 ms).
 */
export const HEARTBEAT_INTERVAL_MS = 3_000;
export const FETCH_MAX_WAIT_MS = 1_000;
