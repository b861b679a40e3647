/**
 * Shared pieces of the distributed composition roots (one process per service): the Kafka bus,
 * the event store (PostgreSQL, or KurrentDB in the compose stack) and the MongoDB projections,
 * from the environment. Only composition roots import this module.
 */
import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import type { Logger } from 'pino';
import type { Bus } from '@parcel/bus';
import { createKafkaBus } from '@parcel/bus-kafka';
import { SettingsError } from '@parcel/config';
import type { EventStore } from '@parcel/eventstore';
import { createPostgresEventStore } from '@parcel/eventstore-postgres';
import type { ProjectionStore } from '@parcel/projections';
import { createMongoProjectionStore } from '@parcel/projections-mongo';

export interface DistributedSettings {
  kafkaBrokers: string[];
  eventStore: 'postgres' | 'kurrentdb';
  pgUrl: string;
  pgSchema: string;
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
}

function oneOf<T extends string>(env: NodeJS.ProcessEnv, name: string, values: readonly T[], fallback: T): T {
  const raw = env[name] || fallback;
  if (!(values as readonly string[]).includes(raw)) throw new SettingsError(`${name} must be one of ${values.join(', ')}, got "${raw}"`);
  return raw as T;
}

const required = (env: NodeJS.ProcessEnv, name: string): string => {
  const value = env[name];
  if (!value) throw new SettingsError(`${name} is required by the distributed services`);
  return value;
};

export function loadDistributedSettings(service: string, env: NodeJS.ProcessEnv = process.env): DistributedSettings {
  const eventStore = (env.PARCEL_EVENT_STORE || 'postgres') as DistributedSettings['eventStore'];
  if (eventStore !== 'postgres' && eventStore !== 'kurrentdb') throw new SettingsError(`PARCEL_EVENT_STORE must be postgres or kurrentdb, got "${eventStore}"`);
  return {
    kafkaBrokers: required(env, 'PARCEL_KAFKA_BROKERS').split(',').map((b) => b.trim()),
    eventStore,
    pgUrl: eventStore === 'postgres' ? required(env, 'PARCEL_PG_URL') : '',
    pgSchema: env.PARCEL_PG_SCHEMA || 'parcel',
    kurrentDbUrl: eventStore === 'kurrentdb' ? required(env, 'KURRENTDB_URL') : '',
    mongoUrl: required(env, 'PARCEL_MONGO_URL'),
    mongoDb: env.PARCEL_MONGO_DB || 'parcel',
    instanceId: env.PARCEL_INSTANCE_ID || `${service}-${hostname()}-${process.pid}-${randomUUID().slice(0, 8)}`,
    healthPort: Number(env.HEALTH_PORT ?? 0),
    kafkaClient: oneOf(env, 'PARCEL_KAFKA_CLIENT', ['platformatic', 'kafkajs'], 'platformatic'),
  };
}

export async function connectBus(settings: DistributedSettings, log: Logger): Promise<Bus> {
  const options = {
    brokers: settings.kafkaBrokers,
    clientId: settings.instanceId,
    instanceId: settings.instanceId,
    logLevel: 'warn' as const,
    logger: log.child({ component: 'bus' }),
  };
  if (settings.kafkaClient === 'kafkajs') return createKafkaBus(options);
  // An ES module of its own, loaded only where it is used.
  const { createPlatformaticKafkaBus } = await import('@parcel/bus-kafka/platformatic');
  return createPlatformaticKafkaBus(options);
}

/** `onCommit`: told the size of each group commit (PostgreSQL; KurrentDB has none), for metrics. */
export async function connectEventStore(settings: DistributedSettings, log: Logger, hooks: { onCommit?: (groupSize: number) => void } = {}): Promise<EventStore> {
  const onHandlerError = (error: unknown, event: { id: string; streamName: string }, attempt: number, subscriptionId: string) =>
    log.warn({ err: error, eventId: event.id, stream: event.streamName, attempt, subscriptionId }, 'subscription handler failed; retrying');
  if (settings.eventStore === 'kurrentdb') {
    // Loaded only when chosen: the client brings gRPC and a native addon.
    const { createKurrentDbEventStore } = await import('@parcel/eventstore-kurrentdb');
    return createKurrentDbEventStore({ connectionString: settings.kurrentDbUrl, onHandlerError });
  }
  return createPostgresEventStore({ connectionString: settings.pgUrl, schema: settings.pgSchema, onHandlerError, ...hooks });
}

export function connectProjections(settings: DistributedSettings): Promise<ProjectionStore> {
  const url = new URL(settings.mongoUrl);
  if (!url.searchParams.has('serverSelectionTimeoutMS')) url.searchParams.set('serverSelectionTimeoutMS', '3000');
  return createMongoProjectionStore({ url: url.toString(), dbName: settings.mongoDb });
}
