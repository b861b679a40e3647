/** The distributed wiring's settings (one process per service): Kafka, the shared stores, health. */
import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import { integer, oneOf, required } from './read.ts';

export interface DistributedSettings {
  kafkaBrokers: string[];
  eventStore: 'postgres' | 'kurrentdb';
  pgUrl: string;
  pgSchema: string;
  /** The schema of the key store's table, apart from the event store's (docs/personal-data.md). */
  pgKeysSchema: string;
  kurrentDbUrl: string;
  mongoUrl: string;
  mongoDb: string;
  /** Unique per process: names its reply group on the bus. */
  instanceId: string;
  /** Port of /healthz and /readyz for services without an HTTP API of their own (0: any free port). */
  healthPort: number;
  /**
   * The Kafka client library behind the bus: @platformatic/kafka unless told otherwise, for its
   * CPU per order and its idle cost (packages/bus-kafka/README.md, "the choice of client").
   */
  kafkaClient: 'kafkajs' | 'platformatic';
  /** How long a silent consumer keeps its partitions: failover time against idle heartbeats (packages/bus-kafka). */
  kafkaSessionTimeoutMs: number;
  /** How long a produce waits for other sends to join it: fewer Kafka requests per order, a few ms more latency. */
  kafkaLingerMs: number;
}

export function loadDistributed(env: NodeJS.ProcessEnv, service: string): DistributedSettings {
  const eventStore = oneOf(env, 'PARCEL_EVENT_STORE', ['postgres', 'kurrentdb'], 'postgres');
  return {
    kafkaBrokers: required(env, 'PARCEL_KAFKA_BROKERS')
      .split(',')
      .map((b) => b.trim()),
    eventStore,
    // The webhook state is on PostgreSQL whatever the event store (connectWebhooks of @parcel-logistics/wiring requires it then).
    pgUrl: eventStore === 'postgres' ? required(env, 'PARCEL_PG_URL') : env.PARCEL_PG_URL || '',
    pgSchema: env.PARCEL_PG_SCHEMA || 'parcel',
    pgKeysSchema: env.PARCEL_PG_KEYS_SCHEMA || 'parcel_keys',
    kurrentDbUrl: eventStore === 'kurrentdb' ? required(env, 'KURRENTDB_URL') : '',
    mongoUrl: required(env, 'PARCEL_MONGO_URL'),
    mongoDb: env.PARCEL_MONGO_DB || 'parcel',
    instanceId: env.PARCEL_INSTANCE_ID || `${service}-${hostname()}-${process.pid}-${randomUUID().slice(0, 8)}`,
    healthPort: integer(env, 'HEALTH_PORT', 0, 0),
    kafkaClient: oneOf(env, 'PARCEL_KAFKA_CLIENT', ['platformatic', 'kafkajs'], 'platformatic'),
    kafkaSessionTimeoutMs: integer(env, 'PARCEL_KAFKA_SESSION_TIMEOUT_MS', 1500, 1000),
    kafkaLingerMs: integer(env, 'PARCEL_KAFKA_LINGER_MS', 20, 0),
  };
}
