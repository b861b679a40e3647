/** Event store on PostgreSQL (the distributed wiring): one schema, shared by every process. */
import { openPostgresPool } from '@parcel-logistics/postgres';
import { groupCommitCalls, toRecorded } from '@parcel-logistics/eventstore/adapter';
import type { EventRow } from '@parcel-logistics/eventstore/adapter';
import {
  createLogReader,
  startCatchUpSubscription,
  subscriptionRegistry,
  type HandlerErrorListener,
} from '@parcel-logistics/eventstore/adapter';
import type { EventStore, RecordedEvent } from '@parcel-logistics/eventstore';
import { createPgAppend } from './postgresAppend.ts';
import { createPgLease } from './postgresLease.ts';
import { createPgListener } from './postgresListener.ts';
import { commitNotices } from './postgresNotices.ts';
import { ensureSchema, pgNames } from './postgresSchema.ts';

export interface PostgresEventStoreOptions {
  connectionString: string;
  /** Schema holding the tables; created at start when missing. Default `parcel`. */
  schema?: string;
  /** Connections of this store object's pool (default 10), plus one for LISTEN once subscribed. */
  poolSize?: number;
  /** Subscriptions' polling interval, the fallback behind LISTEN/NOTIFY (a lost notification; default 10 000 ms). */
  pollIntervalMs?: number;
  /**
   * How often a process standing by for a subscription id that another process serves tries to
   * take it over (default 1000 ms). One id is served by one process at a time (postgresLease.ts).
   */
  leaseRetryMs?: number;
  /**
   * A commit notifies the subscriptions of every process in its own transaction only when this
   * store sent no notification for this long; one inside it is announced by the next commit after
   * it, or at the latest one window later (postgresNotices.ts; default 50 ms, 0: every commit
   * notifies).
   */
  notifyWindowMs?: number;
  /** Told about every failed handler attempt; defaults to a console warning. */
  onHandlerError?: HandlerErrorListener;
  /**
   * Told, after each group commit, how many append calls (`append` or `appendMany`, refused ones
   * included) it carried: for metrics. A throw is ignored.
   */
  onCommit?: (groupSize: number) => void;
}

/**
 * How long the subscriptions' log reader trusts a read that found the head, at most, should the
 * notification of a commit be lost or late.
 */
const HEAD_VALID_MS = 50;
/**
 * At most one notification per this long from each store: under load the subscriptions, which
 * read one page per 100 ms (`coalesceMs`), are woken as often as they read rather than once per
 * commit in every listening process.
 */
const NOTIFY_WINDOW_MS = 50;

// Text columns and an explicit timestamp format: independent of any pg type parsers set process-wide.
// The aliases shadow the columns, so ORDER BY names the table's (`e.`) to sort numerically.
const columns = `global_position::text, stream_name, revision::text, event_id, type, data::text, metadata::text,
  to_char(recorded_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS recorded_at`;

export async function createPostgresEventStore(options: PostgresEventStoreOptions): Promise<EventStore> {
  const n = pgNames(options.schema ?? 'parcel');
  const pool = await openPostgresPool(
    { connectionString: options.connectionString, max: options.poolSize ?? 10, applicationName: 'parcel-eventstore' },
    (pool) => ensureSchema(pool, n),
  );

  const sql = {
    readStream: `SELECT ${columns} FROM ${n.events} AS e WHERE stream_name = $1 AND revision >= $2 ORDER BY e.revision`,
    readAll: `SELECT ${columns} FROM ${n.events} AS e WHERE global_position > $1 ORDER BY e.global_position LIMIT $2`,
    head: `SELECT COALESCE(MAX(global_position), 0)::text AS head FROM ${n.events}`,
    loadCheckpoint: `SELECT position::text FROM ${n.checkpoints} WHERE subscription_id = $1`,
    saveCheckpoint: `INSERT INTO ${n.checkpoints} (subscription_id, position) VALUES ($1, $2)
      ON CONFLICT (subscription_id) DO UPDATE SET position = excluded.position`,
    // The head (subscription_id NULL) and the checkpoints asked for, in one round trip.
    progress: `SELECT NULL AS subscription_id, COALESCE(MAX(global_position), 0)::text AS position FROM ${n.events}
      UNION ALL SELECT subscription_id, position::text FROM ${n.checkpoints} WHERE subscription_id = ANY($1::text[])`,
  };
  const notices = commitNotices(async () => {
    await pool.query('SELECT pg_notify($1, $2)', [n.channelName, '']);
  }, options.notifyWindowMs ?? NOTIFY_WINDOW_MS);
  const append = createPgAppend(pool, n, notices, undefined, options.onCommit);
  const subscriptions = subscriptionRegistry();
  /**
   * Every page of the log is read and parsed once for all of this process's subscriptions (the
   * eventstore package's logReader.ts); a commit, notified, voids what the reader knows of the head.
   */
  const log = createLogReader({ readPage: (after, limit) => readAll(after, limit), headValidMs: HEAD_VALID_MS });
  const wakeAll = (): void => {
    log.invalidate();
    subscriptions.wakeAll();
  };
  const listener = createPgListener(options.connectionString, n.channel, wakeAll);
  let closing: Promise<void> | undefined;

  /** Public calls are refused from the start of close; subscriptions may still save checkpoints while stopping. */
  const open = (): void => {
    if (closing) throw new Error('event store is closed');
  };
  const queryPage = async (afterPosition: number, limit: number): Promise<EventRow[]> =>
    (await pool.query<EventRow>(sql.readAll, [afterPosition, Math.max(0, limit)])).rows;
  const readAll = async (afterPosition: number, limit: number): Promise<RecordedEvent[]> =>
    (await queryPage(afterPosition, limit)).map(toRecorded);
  const submit = async (requests: Parameters<typeof append>[0]) => {
    const { results, wrote } = await append(requests);
    if (wrote) wakeAll();
    return results;
  };

  return {
    ...groupCommitCalls(open, submit, readAll),
    async readStream(streamName, readOptions) {
      open();
      const { rows } = await pool.query<EventRow>(sql.readStream, [streamName, readOptions?.fromRevision ?? 0]);
      return rows.map(toRecorded);
    },
    subscribeToAll(subscribeOptions) {
      open();
      listener.start();
      const subscription = startCatchUpSubscription(
        {
          readAll: (after, limit) => log.read(after, limit),
          headPosition: async () => Number((await pool.query<{ head: string }>(sql.head)).rows[0]!.head),
          loadCheckpoint: async (id) =>
            Number((await pool.query<{ position: string }>(sql.loadCheckpoint, [id])).rows[0]?.position ?? 0),
          saveCheckpoint: async (id, position) => {
            await pool.query(sql.saveCheckpoint, [id, position]);
          },
          lease: (id) => createPgLease(options.connectionString, n.schema, id, options.leaseRetryMs),
        },
        {
          onHandlerError: options.onHandlerError,
          // A commit wakes the subscriptions through LISTEN/NOTIFY, and the listener wakes them again
          // after it reconnects: polling is only a safety net, so it is rare (each poll is a query
          // and a wake-up in an idle stack).
          pollIntervalMs: options.pollIntervalMs ?? 10_000,
          // Every commit group NOTIFYs every subscriber: under load, one page per 100 ms rather than
          // one per commit, and one checkpoint write per second rather than one per page. The API
          // answers do not wait for these (the appending service projects inline); what follows an
          // order (carrier registration, the downstream topic) starts up to 100 ms later.
          coalesceMs: 100,
          checkpointEveryMs: 1000,
          ...subscribeOptions,
        },
      );
      return subscriptions.track(subscription);
    },
    async progress(subscriptionIds) {
      open();
      const { rows } = await pool.query<{ subscription_id: string | null; position: string }>(sql.progress, [
        subscriptionIds,
      ]);
      let head = 0;
      const checkpoints = new Map<string, number>();
      for (const row of rows) {
        if (row.subscription_id === null) head = Number(row.position);
        else checkpoints.set(row.subscription_id, Number(row.position));
      }
      return { head, checkpoints };
    },
    async ping() {
      open();
      await pool.query('SELECT 1');
    },
    close() {
      closing ??= (async () => {
        // Checkpoints are saved while subscriptions stop, so the pool ends last.
        await subscriptions.stopAll();
        await listener.stop();
        await notices.close();
        await pool.end();
      })();
      return closing;
    },
  };
}
