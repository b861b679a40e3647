/** Names, advisory lock keys and the idempotent DDL of the PostgreSQL event store. */
import { createHash } from 'node:crypto';
import type { Pool } from 'pg';

export interface PgNames {
  schema: string;
  events: string;
  checkpoints: string;
  /** LISTEN/NOTIFY channel, quoted. */
  channel: string;
  /** `pg_advisory_xact_lock` arguments serialising the appends of this schema. */
  appendLock: string;
  ddlLock: string;
}

// The two-key form of the advisory lock: a constant class per purpose, the schema's hash as object,
// so stores in different schemas (one per test run) never wait for each other.
const appendLockClass = 0x50617070; // 'Papp'
const ddlLockClass = 0x50646466; // 'Pddf'

export function pgNames(schema: string): PgNames {
  // Names are interpolated into SQL (identifiers cannot be bound), so only plain ones are accepted.
  if (!/^[a-z_][a-z0-9_]{0,47}$/.test(schema)) {
    throw new Error(`invalid event store schema name ${JSON.stringify(schema)}: use [a-z_][a-z0-9_]*, at most 48 characters`);
  }
  const hash = createHash('sha256').update(schema).digest().readInt32BE(0);
  return {
    schema,
    events: `"${schema}".events`,
    checkpoints: `"${schema}".checkpoints`,
    channel: `"${schema}_events"`,
    appendLock: `${appendLockClass}, ${hash}`,
    ddlLock: `${ddlLockClass}, ${hash}`,
  };
}

/**
 * `json`, not `jsonb`: jsonb refuses the escape \u0000 and reorders keys; json keeps the exact text,
 * which the idempotency rule compares. `global_position` is assigned by the append itself (see
 * postgresAppend.ts), so it has no sequence.
 */
const ddl = (n: PgNames) => `
CREATE SCHEMA IF NOT EXISTS "${n.schema}";
CREATE TABLE IF NOT EXISTS ${n.events} (
  global_position bigint PRIMARY KEY CHECK (global_position > 0),
  stream_name text NOT NULL,
  revision bigint NOT NULL CHECK (revision >= 0),
  event_id text NOT NULL UNIQUE,
  type text NOT NULL,
  data json NOT NULL,
  metadata json NOT NULL,
  recorded_at timestamptz NOT NULL DEFAULT date_trunc('milliseconds', now()),
  UNIQUE (stream_name, revision)
);
CREATE TABLE IF NOT EXISTS ${n.checkpoints} (
  subscription_id text PRIMARY KEY,
  position bigint NOT NULL
);`;

/** CREATE ... IF NOT EXISTS still races in the catalog; the advisory lock lets concurrent starters take turns. */
export async function ensureSchema(pool: Pool, n: PgNames): Promise<void> {
  const client = await pool.connect();
  try {
    await client.query(`BEGIN; SELECT pg_advisory_xact_lock(${n.ddlLock}); ${ddl(n)} COMMIT;`);
    client.release();
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    client.release(true);
    throw error;
  }
}
