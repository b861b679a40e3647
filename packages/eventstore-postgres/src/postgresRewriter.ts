/**
 * One-time migrations of a PostgreSQL event store (EventRewriter of the port), run by a
 * composition root before it serves: its own connection, a table of the migrations that ran. What
 * PostgreSQL keeps of a rewritten row (the old row version until vacuumed, the WAL, its archive,
 * replicas, back-ups) is for the operator (docs/personal-data.md); `shred` runs VACUUM on the table.
 */
import pg from 'pg';
import type { EventRewriter, StoredRow } from '@parcel-logistics/eventstore';
import { pgNames } from './postgresSchema.ts';

export async function createPostgresEventRewriter(options: {
  connectionString: string;
  schema: string;
}): Promise<EventRewriter> {
  const n = pgNames(options.schema);
  const migrations = `"${n.schema}".migrations`;
  const client = new pg.Client({ connectionString: options.connectionString });
  await client.connect();
  // Held until close: the schema's DDL and the migrations of concurrent starts (two order services)
  // one at a time, so the second finds the first's migration recorded.
  await client.query(`SELECT pg_advisory_lock(${n.ddlLock})`);
  await client.query(`CREATE SCHEMA IF NOT EXISTS "${n.schema}"`);
  await client.query(
    `CREATE TABLE IF NOT EXISTS ${migrations} (name text PRIMARY KEY, ran_at timestamptz NOT NULL DEFAULT now(), detail json NOT NULL)`,
  );
  const hasEvents =
    (
      await client.query('SELECT 1 FROM information_schema.tables WHERE table_schema = $1 AND table_name = $2', [
        n.schema,
        'events',
      ])
    ).rowCount! > 0;

  return {
    async ran(name) {
      return (await client.query(`SELECT 1 FROM ${migrations} WHERE name = $1`, [name])).rowCount! > 0;
    },
    async page(types, afterPosition, limit) {
      if (!hasEvents) return [];
      const { rows } = await client.query<{
        global_position: string;
        event_id: string;
        stream_name: string;
        type: string;
        data: unknown;
      }>(
        `SELECT global_position, event_id, stream_name, type, data FROM ${n.events}
         WHERE global_position > $1 AND type = ANY($2) ORDER BY global_position LIMIT $3`,
        [afterPosition, types, limit],
      );
      return rows.map((r): StoredRow => ({
        globalPosition: Number(r.global_position),
        id: r.event_id,
        streamName: r.stream_name,
        type: r.type,
        data: r.data,
      }));
    },
    async rewrite(events) {
      if (events.length === 0) return;
      await client.query('BEGIN');
      try {
        for (const e of events)
          await client.query(`UPDATE ${n.events} SET type = $1, data = $2::json WHERE event_id = $3`, [
            e.type,
            JSON.stringify(e.data),
            e.id,
          ]);
        await client.query('COMMIT');
      } catch (error) {
        await client.query('ROLLBACK');
        throw error;
      }
    },
    async record(name, detail) {
      await client.query(
        `INSERT INTO ${migrations} (name, detail) VALUES ($1, $2::json) ON CONFLICT (name) DO UPDATE SET detail = EXCLUDED.detail`,
        [name, JSON.stringify(detail)],
      );
    },
    async shred() {
      if (hasEvents) await client.query(`VACUUM ${n.events}`);
    },
    async close() {
      await client.end();
    },
  };
}
