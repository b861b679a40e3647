import { randomUUID } from 'node:crypto';
import { filtered, stderrLogger } from './log.ts';
import type { BusLogLevel, BusLogger } from './log.ts';
import type { EnsureTopics } from './topics.ts';
import { groupTiming } from './tuning.ts';

export interface KafkaBusOptions {
  brokers: string[];
  clientId: string;
  /** Unique per process: names this instance's reply group and marks its requests. Default: clientId plus a random suffix. */
  instanceId?: string;
  /** Default `parcel.replies`. */
  replyTopic?: string;
  /** Default `parcel.deadletter.v1`. */
  deadLetterTopic?: string;
  /** Deliveries of one message to a group before it goes to the dead-letter topic (default 5). */
  maxDeliveries?: number;
  /** Pause before a redelivery, doubling each time up to 2 s (default 50 ms). */
  redeliveryDelayMs?: number;
  /** Handlers of different keys running at once within one partition (default 16). */
  keyConcurrency?: number;
  /** How long an unsubscribe waits for running handlers before leaving them to redelivery (default 10 s). */
  drainTimeoutMs?: number;
  /** How long a send waits for others to go in the same produce request (default 0: the same tick only). */
  lingerMs?: number;
  /** How long a silent member keeps its partitions (default 1.5 s; heartbeats every third of it): see tuning.ts. */
  sessionTimeoutMs?: number;
  /** Create missing topics with this many partitions (tests, development). Otherwise a missing topic is an error: infra/topics.sh creates them. */
  ensureTopics?: EnsureTopics;
  /** Default `error`. */
  logLevel?: BusLogLevel;
  /** Receives kafkajs's and the bus's own log entries (a pino logger fits). Default: JSON lines on stderr. */
  logger?: BusLogger;
}

export type BusSettings = ReturnType<typeof busSettings>;

/** The bus options every Kafka adapter reads, with their defaults, read in one place. */
export function busSettings(options: KafkaBusOptions) {
  const logLevel = options.logLevel ?? 'error';
  return {
    logLevel,
    log: filtered(options.logger ?? stderrLogger, logLevel),
    instanceId: options.instanceId ?? `${options.clientId}-${randomUUID().slice(0, 8)}`,
    replyTopic: options.replyTopic ?? 'parcel.replies',
    keyConcurrency: options.keyConcurrency ?? 16,
    lingerMs: options.lingerMs ?? 0,
    policy: {
      maxDeliveries: options.maxDeliveries ?? 5,
      redeliveryDelayMs: options.redeliveryDelayMs ?? 50,
      maxRedeliveryDelayMs: 2_000,
      deadLetterTopic: options.deadLetterTopic ?? 'parcel.deadletter.v1',
    },
    timing: groupTiming(options.drainTimeoutMs, options.sessionTimeoutMs),
  };
}
