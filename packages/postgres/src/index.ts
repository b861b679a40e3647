/**
 * What every store on PostgreSQL does the same way (the event store, the webhook stores and the
 * key store): a pool whose schema is made ready before it is handed out, and transactions on one
 * connection of it.
 */
import pg from 'pg';

export interface PostgresPoolOptions {
  connectionString: string;
  /** Connections of the pool. */
  max: number;
  /** Names the store's connections in pg_stat_activity. */
  applicationName: string;
}

/**
 * A pool on which `prepare` (the schema's DDL) has run; ended again when `prepare` fails. An idle
 * connection that dies is dropped by the pool; the next query opens a new one.
 */
export async function openPostgresPool(
  options: PostgresPoolOptions,
  prepare: (pool: pg.Pool) => Promise<void>,
): Promise<pg.Pool> {
  const pool = new pg.Pool({
    connectionString: options.connectionString,
    max: options.max,
    application_name: options.applicationName,
  });
  pool.on('error', () => undefined);
  try {
    await prepare(pool);
  } catch (error) {
    await pool.end();
    throw error;
  }
  return pool;
}

/**
 * Runs `work` in a transaction on one connection of the pool: committed if it resolves, rolled
 * back if it rejects (the connection is then dropped rather than handed to the next caller).
 */
export async function inTransaction<T>(pool: pg.Pool, work: (client: pg.PoolClient) => Promise<T>): Promise<T> {
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    const result = await work(client);
    await client.query('COMMIT');
    client.release();
    return result;
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    client.release(true);
    throw error;
  }
}
