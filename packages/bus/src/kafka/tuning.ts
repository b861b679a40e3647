/** Consumer timing shared by both Kafka adapters (kafkajs and @platformatic/kafka). */

/**
 * Heartbeats once a second: members notice a rebalance within about a second, so a joining process
 * gets its partitions soon, and the session (10 s) survives short stalls. A fetch returns as soon as
 * a record arrives, so its wait only sets how often an idle member asks again: every request an
 * idle member makes wakes it and the broker, and the idle distributed stack spent a quarter of a
 * core on fetches every 50 ms, half as much every 250 ms.
 */
export const HEARTBEAT_INTERVAL_MS = 1_000;
export const FETCH_MAX_WAIT_MS = 1_000;

