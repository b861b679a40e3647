/** Names, advisory lock keys and the idempotent DDL of the PostgreSQL event store. */
import { createHash } from 'node:crypto';
import type { Pool } from 'pg';
import { inTransaction } from '@parcel-logistics/postgres';

export interface PgNames {
  schema: string;
  events: string;
  checkpoints: string;
  /** LISTEN/NOTIFY channel, quoted (LISTEN). */
  channel: string;
  /** The same channel as text (pg_notify). */
  channelName: string;
  /** The function that commits an append's rows (see postgresAppend.ts). */
  appendRows: string;
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
    throw new Error(
      `invalid event store schema name ${JSON.stringify(schema)}: use [a-z_][a-z0-9_]*, at most 48 characters`,
    );
  }
  const hash = createHash('sha256').update(schema).digest().readInt32BE(0);
  return {
    schema,
    events: `"${schema}".events`,
    checkpoints: `"${schema}".checkpoints`,
    channel: `"${schema}_events"`,
    channelName: `${schema}_events`,
    // A name of its own for the function with the gap check, which the writes without a lookup rely
    // on: an older process starting beside this one replaces its own `append_rows`, never this one.
    appendRows: `"${schema}".append_checked_rows`,
    appendLock: `${appendLockClass}, ${hash}`,
    ddlLock: `${ddlLockClass}, ${hash}`,
  };
}

/** The SQLSTATE `append_checked_rows` raises for a row whose stream does not end where it was planned to. */
export const GAP_ERRCODE = 'PXGAP';

/**
 * The rows of an append (`streams` and `revisions`, side by side) whose stream's previous revision
 * is not stored. PL/pgSQL plans it once per connection and keeps the plan as the table grows; it
 * plans as index lookups even on an empty table (postgresPlans.int.spec.ts holds it to that).
 */
export const gapSql = (n: PgNames, streams = '$1', revisions = '$2'): string =>
  `SELECT 1 FROM unnest(${streams}::text[], ${revisions}::bigint[]) AS r(stream, revision)
      WHERE r.revision > 0 AND NOT EXISTS (
        SELECT 1 FROM ${n.events} WHERE stream_name = r.stream AND revision = r.revision - 1)`;

/**
 * `json`, not `jsonb`: jsonb refuses the escape \u0000 and reorders keys; json keeps the exact text,
 * which the idempotency rule compares. `global_position` is assigned by `append_checked_rows` (see
 * postgresAppend.ts), so it has no sequence. The function's statements each take a fresh snapshot
 * (a volatile PL/pgSQL function under READ COMMITTED), so the head it reads after taking the
 * lock includes every append committed before.
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
);
CREATE OR REPLACE FUNCTION ${n.appendRows}(
  streams text[], revisions bigint[], ids text[], types text[], data text[], metadata text[], notify boolean
) RETURNS bigint LANGUAGE plpgsql AS $append$
DECLARE
  head bigint;
BEGIN
  PERFORM pg_advisory_xact_lock(${n.appendLock});
  SELECT COALESCE(MAX(global_position), 0) INTO head FROM ${n.events};
  INSERT INTO ${n.events} (global_position, stream_name, revision, event_id, type, data, metadata)
    SELECT head + e.n, e.stream, e.revision, e.id, e.type, e.data::json, e.metadata::json
      FROM unnest(streams, revisions, ids, types, data, metadata) WITH ORDINALITY AS e(stream, revision, id, type, data, metadata, n);
  -- Every row follows its stream's previous revision, stored before or in this call: never a gap.
  IF EXISTS (${gapSql(n, 'streams', 'revisions')}) THEN
    RAISE EXCEPTION 'a stream revision would follow a revision that is not stored' USING ERRCODE = '${GAP_ERRCODE}';
  END IF;
  IF notify THEN
    PERFORM pg_notify('${n.channelName}', '');
  END IF;
  RETURN head;
END
$append$;`;

/** CREATE ... IF NOT EXISTS still races in the catalog; the advisory lock lets concurrent starters take turns. */
export async function ensureSchema(pool: Pool, n: PgNames): Promise<void> {
  await inTransaction(pool, async (client) => {
    await client.query(`SELECT pg_advisory_xact_lock(${n.ddlLock}); ${ddl(n)}`);
  });
}
