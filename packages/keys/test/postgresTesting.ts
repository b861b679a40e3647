/** Test support for the PostgreSQL key store: the database URL and a throw-away schema per store. */
import { randomUUID } from 'node:crypto';
import pg from 'pg';

export function pgTestUrl(): string {
  const url = process.env.PARCEL_PG_URL;
  if (!url) {
    throw new Error(
      'PARCEL_PG_URL is not set: start PostgreSQL and export it with `eval "$(bash infra/up.sh postgres)"` (npm test does this)',
    );
  }
  return url;
}

/** A schema name no other run uses; `drop` removes it with everything in it. */
export function tempSchema(url: string): { schema: string; drop: () => Promise<void> } {
  const schema = `keys_test_${randomUUID().replaceAll('-', '').slice(0, 16)}`;
  return {
    schema,
    drop: async () => {
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      try {
        await client.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
      } finally {
        await client.end();
      }
    },
  };
}

/** Every row of a table as bytes (its text form): what the table holds, as a scan sees it. */
export async function tableBytes(url: string, table: string): Promise<Buffer[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query<{ row: Buffer }>(
      `SELECT convert_to(t::text, 'UTF8') || coalesce(t.wrapped, ''::bytea) AS row FROM ${table} AS t`,
    );
    return rows.map((r) => r.row);
  } finally {
    await client.end();
  }
}
