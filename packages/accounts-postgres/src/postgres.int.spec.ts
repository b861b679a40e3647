/** The PostgreSQL account store against the port's conformance suite: two store objects on one schema are two gateways. */
import { randomUUID } from 'node:crypto';
import pg from 'pg';
import type { AccountStore } from '@parcel-logistics/accounts';
import { accountStoreConformance } from '@parcel-logistics/accounts/conformance';
import { createPostgresAccountStore } from './index.ts';

const url = process.env.PARCEL_PG_URL;
if (!url) throw new Error('PARCEL_PG_URL is not set: `eval "$(bash infra/up.sh postgres)"` (npm test does this)');

/** Runs SQL on a connection of its own. */
async function query<T extends pg.QueryResultRow>(text: string): Promise<T[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query<T>(text)).rows;
  } finally {
    await client.end();
  }
}

accountStoreConformance('postgres', async () => {
  const schema = `accounts_test_${randomUUID().replaceAll('-', '').slice(0, 16)}`;
  const opened: AccountStore[] = [];
  const open = async () => {
    const store = await createPostgresAccountStore({ connectionString: url, schema });
    opened.push(store);
    return store;
  };
  return {
    store: await open(),
    reopen: open,
    // Every row of every table of the schema, as text.
    atRest: async () => {
      const tables = await query<{ table_name: string }>(
        `SELECT table_name FROM information_schema.tables WHERE table_schema = '${schema}'`,
      );
      const rows = await Promise.all(
        tables.map(({ table_name }) =>
          query<{ row: string }>(`SELECT t::text AS row FROM "${schema}"."${table_name}" t`),
        ),
      );
      return rows.flat().map((r) => Buffer.from(r.row));
    },
    cleanup: async () => {
      await Promise.all(opened.map((store) => store.close()));
      await query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
    },
  };
});
