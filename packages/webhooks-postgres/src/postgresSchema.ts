/**
 * The tables of the webhook adapters in a PostgreSQL schema (the event store's, `PARCEL_PG_SCHEMA`,
 * in the distributed wiring, so a run's schema holds all of its state), and the pool both open.
 * Times are stored as Unix milliseconds, as in the SQLite adapter: no pg type parser is involved.
 */
import { createHash } from 'node:crypto';
import type pg from 'pg';
import { inTransaction, openPostgresPool } from '@parcel-logistics/postgres';

export interface PostgresWebhooksOptions {
  connectionString: string;
  /** Schema holding the tables; created at start when missing. Default `parcel`. */
  schema?: string;
  /** Connections of the pool (default 4). */
  poolSize?: number;
}

export interface WebhookTables {
  schema: string;
  endpoints: string;
  deliveries: string;
  attempts: string;
  replays: string;
  leases: string;
}

// The two-key advisory lock: a constant class per purpose, the schema's hash as object. The DDL
// class is the event store's own (@parcel-logistics/eventstore-postgres): both create the same schema, and
// CREATE SCHEMA IF NOT EXISTS still races in the catalog unless they take turns.
const ddlLockClass = 0x50646466; // 'Pddf'
export const capLockClass = 0x50776863; // 'Pwhc'

function tablesOf(schema: string): WebhookTables {
  // Identifiers cannot be bound, so only plain names are accepted.
  if (!/^[a-z_][a-z0-9_]{0,47}$/.test(schema))
    throw new Error(
      `invalid webhook schema name ${JSON.stringify(schema)}: use [a-z_][a-z0-9_]*, at most 48 characters`,
    );
  return {
    schema,
    endpoints: `"${schema}".webhook_endpoints`,
    deliveries: `"${schema}".webhook_deliveries`,
    attempts: `"${schema}".webhook_attempts`,
    replays: `"${schema}".webhook_replays`,
    leases: `"${schema}".webhook_leases`,
  };
}

const ddl = (t: WebhookTables) => `
CREATE SCHEMA IF NOT EXISTS "${t.schema}";
CREATE TABLE IF NOT EXISTS ${t.endpoints} (
  client_id text NOT NULL,
  id text NOT NULL UNIQUE,
  url text NOT NULL,
  event_types text NOT NULL,
  description text NOT NULL,
  enabled boolean NOT NULL,
  disabled_reason text NOT NULL,
  secrets text NOT NULL,
  created_at bigint NOT NULL,
  updated_at bigint NOT NULL,
  PRIMARY KEY (client_id, id)
);
CREATE TABLE IF NOT EXISTS ${t.deliveries} (
  endpoint_id text NOT NULL,
  event_id text COLLATE "C" NOT NULL,
  position bigint NOT NULL,
  body text NOT NULL,
  attempts integer NOT NULL DEFAULT 0,
  next_attempt_at bigint NOT NULL,
  failing_since bigint,
  state text NOT NULL,
  queued_at bigint NOT NULL,
  settled_at bigint,
  PRIMARY KEY (endpoint_id, event_id)
);
CREATE INDEX IF NOT EXISTS webhook_deliveries_pending ON ${t.deliveries} (endpoint_id, position, event_id) WHERE state = 'pending';
CREATE INDEX IF NOT EXISTS webhook_deliveries_newest ON ${t.deliveries} (endpoint_id, position, event_id);
CREATE INDEX IF NOT EXISTS webhook_deliveries_settled ON ${t.deliveries} (settled_at) WHERE state <> 'pending';
CREATE TABLE IF NOT EXISTS ${t.attempts} (
  seq bigserial PRIMARY KEY,
  endpoint_id text NOT NULL,
  event_id text NOT NULL,
  attempt integer NOT NULL,
  at bigint NOT NULL,
  duration_ms integer NOT NULL,
  status integer,
  answer text NOT NULL,
  reason text NOT NULL
);
CREATE INDEX IF NOT EXISTS webhook_attempts_by_endpoint ON ${t.attempts} (endpoint_id, seq);
CREATE INDEX IF NOT EXISTS webhook_attempts_by_time ON ${t.attempts} (at);
CREATE TABLE IF NOT EXISTS ${t.replays} (
  id text PRIMARY KEY,
  endpoint_id text NOT NULL,
  since bigint NOT NULL,
  requested_at bigint NOT NULL,
  status text NOT NULL,
  position bigint NOT NULL,
  scanned integer NOT NULL,
  queued integer NOT NULL,
  finished_at bigint
);
-- One replay not done per endpoint: requests racing on two gateways meet here.
CREATE UNIQUE INDEX IF NOT EXISTS webhook_replays_open ON ${t.replays} (endpoint_id) WHERE status <> 'done';
CREATE TABLE IF NOT EXISTS ${t.leases} (
  endpoint_id text PRIMARY KEY,
  owner text NOT NULL,
  expires_at bigint NOT NULL
);`;

/** The schema's part of an advisory lock key, so stores in different schemas (one per test run) never wait for each other. */
export const schemaKey = (schema: string): number => createHash('sha256').update(schema).digest().readInt32BE(0);

/** A pool on the schema, its tables created when missing (concurrent starters take turns under an advisory lock). */
export async function openPool(
  options: PostgresWebhooksOptions,
  name: string,
): Promise<{ pool: pg.Pool; tables: WebhookTables }> {
  const tables = tablesOf(options.schema ?? 'parcel');
  const pool = await openPostgresPool(
    { connectionString: options.connectionString, max: options.poolSize ?? 4, applicationName: name },
    (pool) =>
      inTransaction(pool, async (client) => {
        await client.query(`SELECT pg_advisory_xact_lock(${ddlLockClass}, ${schemaKey(tables.schema)})`);
        await client.query(ddl(tables));
      }),
  );
  return { pool, tables };
}
