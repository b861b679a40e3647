/** Test support for the PostgreSQL key store (the URL and the throw-away schema: @parcel-logistics/postgres/scratch). */
import pg from 'pg';

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
