/**
 * The account store on PostgreSQL, the distributed wiring's: shared by every gateway (and read by
 * the webhook instances), in the event store's schema (`PARCEL_PG_SCHEMA`). Each account is one
 * row holding its record as JSON (its keys sealed). A change takes the version row's lock first,
 * so changes are serialised and the version a reader polls grows with each.
 */
import { createHash } from 'node:crypto';
import type pg from 'pg';
import { inTransaction, openPostgresPool } from '@parcel-logistics/postgres';
import { auditEntryOf, type AccountRecord, type AccountStore, type AuditEntry } from '@parcel-logistics/accounts';

export interface PostgresAccountsOptions {
  connectionString: string;
  /** Schema holding the tables; created at start when missing. Default `parcel`. */
  schema?: string;
  /** Connections of the pool (default 2). */
  poolSize?: number;
}

// The event store's DDL lock class (@parcel-logistics/eventstore-postgres): every store creating
// the same schema takes turns, or CREATE SCHEMA IF NOT EXISTS races in the catalog.
const ddlLockClass = 0x50646466; // 'Pddf'
const UNIQUE_VIOLATION = '23505';

interface AuditRow {
  seq: string;
  at: string;
  actor: string;
  action: AuditEntry['action'];
  api_name: string;
  detail: Record<string, unknown>;
}

export async function createPostgresAccountStore(options: PostgresAccountsOptions): Promise<AccountStore> {
  const schema = options.schema ?? 'parcel';
  // Identifiers cannot be bound, so only plain names are accepted.
  if (!/^[a-z_][a-z0-9_]{0,47}$/.test(schema))
    throw new Error(
      `invalid account schema name ${JSON.stringify(schema)}: use [a-z_][a-z0-9_]*, at most 48 characters`,
    );
  const t = {
    accounts: `"${schema}".accounts`,
    uses: `"${schema}".account_key_uses`,
    audit: `"${schema}".account_audit`,
    meta: `"${schema}".account_meta`,
  };
  const schemaKey = createHash('sha256').update(schema).digest().readInt32BE(0);
  const pool = await openPostgresPool(
    { connectionString: options.connectionString, max: options.poolSize ?? 2, applicationName: 'parcel-accounts' },
    (pool) =>
      inTransaction(pool, async (client) => {
        await client.query(`SELECT pg_advisory_xact_lock(${ddlLockClass}, ${schemaKey})`);
        await client.query(`
CREATE SCHEMA IF NOT EXISTS "${schema}";
CREATE TABLE IF NOT EXISTS ${t.accounts} (
  api_name text PRIMARY KEY,
  client_id text NOT NULL UNIQUE,
  revision integer NOT NULL,
  record jsonb NOT NULL
);
CREATE TABLE IF NOT EXISTS ${t.uses} (key_id text PRIMARY KEY, last_used_at text NOT NULL);
CREATE TABLE IF NOT EXISTS ${t.audit} (
  seq bigserial PRIMARY KEY,
  at text NOT NULL,
  actor text NOT NULL,
  action text NOT NULL,
  api_name text NOT NULL,
  detail jsonb NOT NULL
);
CREATE TABLE IF NOT EXISTS ${t.meta} (name text PRIMARY KEY, value bigint NOT NULL);
INSERT INTO ${t.meta} (name, value) VALUES ('version', 0), ('seeded', 0) ON CONFLICT DO NOTHING;`);
      }),
  );

  const sql = {
    version: `SELECT value::text FROM ${t.meta} WHERE name = 'version'`,
    lockVersion: `SELECT value FROM ${t.meta} WHERE name = 'version' FOR UPDATE`,
    bump: `UPDATE ${t.meta} SET value = value + 1 WHERE name = 'version'`,
    seeded: `SELECT value FROM ${t.meta} WHERE name = 'seeded'`,
    markSeeded: `UPDATE ${t.meta} SET value = 1 WHERE name = 'seeded'`,
    list: `SELECT record FROM ${t.accounts} ORDER BY api_name`,
    get: `SELECT record FROM ${t.accounts} WHERE api_name = $1`,
    insert: `INSERT INTO ${t.accounts} (api_name, client_id, revision, record) VALUES ($1, $2, $3, $4)`,
    update: `UPDATE ${t.accounts} SET revision = $1, record = $2 WHERE api_name = $3 AND revision = $4`,
    audit: `INSERT INTO ${t.audit} (at, actor, action, api_name, detail) VALUES ($1, $2, $3, $4, $5)`,
    auditPage: `SELECT seq::text, at, actor, action, api_name, detail FROM ${t.audit} WHERE seq < $1 ORDER BY seq DESC LIMIT $2`,
    touch: `INSERT INTO ${t.uses} (key_id, last_used_at) SELECT * FROM unnest($1::text[], $2::text[])
      ON CONFLICT (key_id) DO UPDATE SET last_used_at = greatest(${t.uses}.last_used_at, excluded.last_used_at)`,
    used: `SELECT key_id, last_used_at FROM ${t.uses} WHERE key_id = ANY($1::text[])`,
  };
  const writeAudit = (client: pg.PoolClient, a: Omit<AuditEntry, 'seq'>) =>
    client.query(sql.audit, [a.at, a.actor, a.action, a.apiName, JSON.stringify(a.detail)]);

  /** One write transaction behind the version row's lock; false from `work` rolls back. */
  const change = (work: (client: pg.PoolClient) => Promise<boolean>) =>
    inTransaction(pool, async (client) => {
      await client.query(sql.lockVersion);
      if (!(await work(client))) throw new Rollback();
      await client.query(sql.bump);
      return true;
    }).catch((error: unknown) => {
      if (error instanceof Rollback) return false;
      if ((error as { code?: string }).code === UNIQUE_VIOLATION) return false;
      throw error;
    });

  return {
    async version() {
      return Number((await pool.query<{ value: string }>(sql.version)).rows[0]!.value);
    },
    async list() {
      // One snapshot: the version and the rows it counts.
      return inTransaction(pool, async (client) => {
        await client.query('SET TRANSACTION ISOLATION LEVEL REPEATABLE READ');
        const version = Number((await client.query<{ value: string }>(sql.version)).rows[0]!.value);
        const { rows } = await client.query<{ record: AccountRecord }>(sql.list);
        return { version, accounts: rows.map((r) => r.record) };
      });
    },
    async get(apiName) {
      return (await pool.query<{ record: AccountRecord }>(sql.get, [apiName])).rows[0]?.record;
    },
    async put(next, expected, audit) {
      const written = await change(async (client) => {
        const values = [next.revision, JSON.stringify(next)];
        const { rowCount } =
          expected === 0
            ? await client.query(sql.insert, [next.apiName, next.clientId, ...values])
            : await client.query(sql.update, [...values, next.apiName, expected]);
        if (rowCount !== 1) return false;
        await writeAudit(client, audit);
        return true;
      });
      return written ? 'written' : 'conflict';
    },
    async seed(accounts, audit) {
      return change(async (client) => {
        if (Number((await client.query<{ value: string }>(sql.seeded)).rows[0]!.value) === 1) return false;
        for (const a of accounts)
          await client.query(sql.insert, [a.apiName, a.clientId, a.revision, JSON.stringify(a)]);
        for (const entry of audit) await writeAudit(client, entry);
        await client.query(sql.markSeeded);
        return true;
      });
    },
    async touch(uses) {
      if (uses.size === 0) return;
      await pool.query(sql.touch, [[...uses.keys()], [...uses.values()]]);
    },
    async lastUsed(keyIds) {
      const { rows } = await pool.query<{ key_id: string; last_used_at: string }>(sql.used, [keyIds]);
      return new Map(rows.map((r) => [r.key_id, r.last_used_at]));
    },
    async audit({ before, limit }) {
      const { rows } = await pool.query<AuditRow>(sql.auditPage, [before ?? Number.MAX_SAFE_INTEGER, limit]);
      return rows.map((r) => auditEntryOf(r, r.detail));
    },
    async ping() {
      await pool.query('SELECT 1');
    },
    async close() {
      if (!pool.ended) await pool.end();
    },
  };
}

class Rollback extends Error {}
