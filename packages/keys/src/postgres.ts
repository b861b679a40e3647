/**
 * Key store on PostgreSQL (the distributed wiring): one table in a schema of its own (default
 * `parcel_keys`), apart from the event store's, created at start, shared by every process.
 *
 * A destroyed key's row is updated to hold no key material. PostgreSQL keeps the old row version
 * until VACUUM reclaims it, and its bytes in the table's free space, the WAL and base backups
 * until overwritten or expired: `shred()` runs VACUUM on the table, which is as far as SQL goes
 * (see the README for the operator's part).
 */
import type pg from 'pg';
import { inTransaction, openPostgresPool } from '@parcel-logistics/postgres';
import { createHash } from 'node:crypto';
import { checkParcelId, keyInfoOf, MASTER_KEY_ID, newDataKey, openDataKey, openDataKeys } from './adapter.ts';
import { WrongMasterKeyError } from './errors.ts';
import type { MasterKey } from './masterKey.ts';
import type { CreateKeyOptions, CreateKeyResult, DestroyKeyResult, KeyStore } from './port.ts';

export interface PostgresKeyStoreOptions {
  connectionString: string;
  masterKey: MasterKey;
  /** Schema holding the table; created at start when missing. Default `parcel_keys`. */
  schema?: string;
  /** Connections of the pool (default 4). */
  poolSize?: number;
}

const ddlLockClass = 0x506b6579; // 'Pkey'
const iso = (column: string) => `to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

interface Row {
  parcel_id: string;
  generation: number;
  wrapped: Buffer | null;
  created_at: string;
  erased_at: string | null;
}

export async function createPostgresKeyStore(options: PostgresKeyStoreOptions): Promise<KeyStore> {
  const { masterKey } = options;
  const schema = options.schema ?? 'parcel_keys';
  // Interpolated into SQL (identifiers cannot be bound), so only plain names are accepted.
  if (!/^[a-z_][a-z0-9_]{0,47}$/.test(schema)) {
    throw new Error(
      `invalid key store schema name ${JSON.stringify(schema)}: use [a-z_][a-z0-9_]*, at most 48 characters`,
    );
  }
  const table = `"${schema}".data_keys`;
  const meta = `"${schema}".meta`;
  const pool = await openPostgresPool(
    { connectionString: options.connectionString, max: options.poolSize ?? 4, applicationName: 'parcel-keys' },
    async (pool) => {
      await ensureSchema(pool, schema, table, meta);
      await checkMasterKey(pool, meta, masterKey, schema);
    },
  );

  const columns = `parcel_id, generation, wrapped, ${iso('created_at')} AS created_at, ${iso('erased_at')} AS erased_at`;
  const sql = {
    // One round trip for the common cases: inserted, or the row that was there. Under a
    // concurrent insert of the same parcel the SELECT's snapshot may miss the other's row: retried.
    create: `WITH inserted AS (
        INSERT INTO ${table} (parcel_id, generation, wrapped) VALUES ($1, 1, $2)
        ON CONFLICT (parcel_id) DO NOTHING RETURNING parcel_id)
      SELECT true AS inserted, NULL::int AS generation, NULL::bytea AS wrapped, NULL AS erased_at FROM inserted
      UNION ALL
      SELECT false, generation, wrapped, ${iso('erased_at')} FROM ${table}
        WHERE parcel_id = $1 AND NOT EXISTS (SELECT 1 FROM inserted)`,
    lock: `SELECT ${columns} FROM ${table} WHERE parcel_id = $1 FOR UPDATE`,
    renew: `UPDATE ${table} SET generation = $2, wrapped = $3, created_at = now(), erased_at = NULL WHERE parcel_id = $1`,
    erase: `UPDATE ${table} SET wrapped = NULL, erased_at = now() WHERE parcel_id = $1 RETURNING ${iso('erased_at')} AS erased_at`,
    tombstone: `INSERT INTO ${table} (parcel_id, generation, wrapped, erased_at) VALUES ($1, 0, NULL, now())
      ON CONFLICT (parcel_id) DO NOTHING RETURNING ${iso('erased_at')} AS erased_at`,
    // The parcels' first keys, many in one statement: those whose row was not there yet are returned.
    createMany: `INSERT INTO ${table} (parcel_id, generation, wrapped)
      SELECT parcel_id, 1, wrapped FROM unnest($1::text[], $2::bytea[]) AS k (parcel_id, wrapped)
      ON CONFLICT (parcel_id) DO NOTHING RETURNING parcel_id`,
    find: findSql(table),
    list: `SELECT ${columns} FROM ${table} WHERE parcel_id > $1 ORDER BY parcel_id LIMIT $2`,
    count: `SELECT count(*) FILTER (WHERE wrapped IS NOT NULL)::int AS active, count(*) FILTER (WHERE wrapped IS NULL)::int AS erased FROM ${table}`,
  };

  let closing: Promise<void> | undefined;
  const open = (): void => {
    if (closing) throw new Error('key store is closed');
  };

  const renewErased = (parcelId: string) =>
    inTransaction(pool, async (client): Promise<CreateKeyResult> => {
      const row = (await client.query<Row>(sql.lock, [parcelId])).rows[0];
      if (row?.wrapped)
        return { status: 'existing', key: openDataKey(masterKey, parcelId, row.generation, row.wrapped) };
      // Rows are never deleted, so the erased row seen before is there.
      if (!row) throw new Error(`key store: the row of parcel ${parcelId} is missing`);
      const { dataKey, wrapped } = newDataKey(masterKey, parcelId, row.generation + 1);
      await client.query(sql.renew, [parcelId, row.generation + 1, wrapped]);
      return { status: 'created', key: dataKey };
    });

  /** One parcel's create, in its own statement: inserted, or the row that was there (existing, erased, renewed). */
  async function createOne(
    parcelId: string,
    createOptions: CreateKeyOptions | undefined,
    made = newDataKey(masterKey, parcelId, 1),
  ): Promise<CreateKeyResult> {
    for (let attempt = 0; attempt < 5; attempt++) {
      const row = (
        await pool.query<{ inserted: boolean; generation: number; wrapped: Buffer | null; erased_at: string | null }>({
          name: `${schema}-create`,
          text: sql.create,
          values: [parcelId, made.wrapped],
        })
      ).rows[0];
      if (!row) continue;
      if (row.inserted) return { status: 'created', key: made.dataKey };
      if (row.wrapped) {
        return { status: 'existing', key: openDataKey(masterKey, parcelId, row.generation, row.wrapped) };
      }
      if (!createOptions?.renewErased) return { status: 'erased', erasedAt: row.erased_at! };
      return renewErased(parcelId);
    }
    throw new Error(`key store: creating the key of parcel ${parcelId} kept racing with another process`);
  }

  /**
   * The first keys asked for in one turn of the event loop are inserted by one statement (one
   * commit) instead of one each: new parcels' keys are made ahead many at a time, and a commit per
   * key was most of what PostgreSQL spent on an order. A parcel whose row was there already (or
   * repeated in the turn) then takes the single path, which answers from its row.
   */
  let pending: {
    parcelId: string;
    made: ReturnType<typeof newDataKey>;
    settle: PromiseWithResolvers<CreateKeyResult>;
  }[] = [];
  async function createPending(): Promise<void> {
    const batch = pending;
    pending = [];
    const first = new Map(batch.map((p) => [p.parcelId, p] as const).reverse());
    let inserted: Set<string>;
    try {
      const { rows } = await pool.query<{ parcel_id: string }>({
        name: `${schema}-create-many`,
        text: sql.createMany,
        values: [[...first.keys()], [...first.values()].map((p) => p.made.wrapped)],
      });
      inserted = new Set(rows.map((r) => r.parcel_id));
    } catch (error) {
      for (const p of batch) p.settle.reject(error);
      return;
    }
    for (const p of batch) {
      if (first.get(p.parcelId) === p && inserted.has(p.parcelId))
        p.settle.resolve({ status: 'created', key: p.made.dataKey });
      else createOne(p.parcelId, undefined, p.made).then(p.settle.resolve, p.settle.reject);
    }
  }

  return {
    async create(parcelId, createOptions) {
      open();
      checkParcelId(parcelId);
      if (createOptions?.renewErased) return createOne(parcelId, createOptions);
      if (pending.length === 0) setImmediate(() => void createPending());
      const settle = Promise.withResolvers<CreateKeyResult>();
      pending.push({ parcelId, made: newDataKey(masterKey, parcelId, 1), settle });
      return settle.promise;
    },
    async find(parcelIds) {
      open();
      if (parcelIds.length === 0) return new Map();
      const { rows } = await pool.query<Pick<Row, 'parcel_id' | 'generation' | 'wrapped'>>({
        name: `${schema}-find`,
        text: sql.find,
        values: [[...new Set(parcelIds)]],
      });
      return openDataKeys(masterKey, rows);
    },
    async destroy(parcelId) {
      open();
      checkParcelId(parcelId);
      for (let attempt = 0; attempt < 5; attempt++) {
        const result = await inTransaction(pool, async (client): Promise<DestroyKeyResult | undefined> => {
          const row = (await client.query<Row>(sql.lock, [parcelId])).rows[0];
          if (row && !row.wrapped) return { status: 'already-erased', erasedAt: row.erased_at! };
          if (row) {
            const erased = (await client.query<{ erased_at: string }>(sql.erase, [parcelId])).rows[0]!;
            return { status: 'destroyed', erasedAt: erased.erased_at };
          }
          const inserted = (await client.query<{ erased_at: string }>(sql.tombstone, [parcelId])).rows[0];
          // A create committed meanwhile: lock its row on the next attempt and erase it.
          return inserted && { status: 'tombstoned', erasedAt: inserted.erased_at };
        });
        if (result) return result;
      }
      throw new Error(`key store: destroying the key of parcel ${parcelId} kept racing with another process`);
    },
    async list({ after = '', limit }) {
      open();
      const { rows } = await pool.query<Row>(sql.list, [after, Math.max(0, limit)]);
      return rows.map((row) => keyInfoOf(row, Boolean(row.wrapped)));
    },
    async count() {
      open();
      return (await pool.query<{ active: number; erased: number }>(sql.count)).rows[0]!;
    },
    async shred() {
      open();
      await pool.query(`VACUUM ${table}`);
    },
    async ping() {
      open();
      await pool.query('SELECT 1');
    },
    close() {
      closing ??= pool.end();
      return closing;
    },
  };
}

/**
 * The keys of many parcels, each looked up on the primary key in a LATERAL subquery kept apart by
 * its LIMIT. A named statement is planned once per connection and the plan is kept until the
 * table's statistics change: with `parcel_id = ANY($1)`, a process that started while the table
 * was small kept a sequential scan until autovacuum first analyzed the table (on a new deployment,
 * its first minute or more), at 3 to 5 ms of PostgreSQL's CPU per find once the table held a few
 * thousand keys. This plan stays one index lookup per parcel whatever the table's size and statistics.
 */
export const findSql = (table: string): string => `
    SELECT k.parcel_id, k.generation, k.wrapped
      FROM unnest($1::text[]) AS i(id)
      CROSS JOIN LATERAL (SELECT parcel_id, generation, wrapped FROM ${table}
        WHERE parcel_id = i.id AND wrapped IS NOT NULL LIMIT 1) AS k`;

async function ensureSchema(pool: pg.Pool, schema: string, table: string, meta: string): Promise<void> {
  const hash = createHash('sha256').update(schema).digest().readInt32BE(0);
  await inTransaction(pool, async (client) => {
    await client.query(`SELECT pg_advisory_xact_lock(${ddlLockClass}, ${hash});
      CREATE SCHEMA IF NOT EXISTS "${schema}";
      CREATE TABLE IF NOT EXISTS ${table} (
        parcel_id text COLLATE "C" PRIMARY KEY,
        generation integer NOT NULL CHECK (generation >= 0),
        wrapped bytea,
        created_at timestamptz NOT NULL DEFAULT now(),
        erased_at timestamptz,
        CHECK ((wrapped IS NULL) = (erased_at IS NOT NULL))
      );
      CREATE TABLE IF NOT EXISTS ${meta} (name text PRIMARY KEY, value text NOT NULL);`);
  });
}

async function checkMasterKey(pool: pg.Pool, meta: string, masterKey: MasterKey, schema: string): Promise<void> {
  await pool.query(`INSERT INTO ${meta} (name, value) VALUES ($1, $2) ON CONFLICT (name) DO NOTHING`, [
    MASTER_KEY_ID,
    masterKey.id,
  ]);
  const stored = (await pool.query<{ value: string }>(`SELECT value FROM ${meta} WHERE name = $1`, [MASTER_KEY_ID]))
    .rows[0]!.value;
  if (stored !== masterKey.id) throw new WrongMasterKeyError(`the key store in schema ${schema}`, stored, masterKey.id);
}
