/**
 * Subscription leases on PostgreSQL: a session-level advisory lock per (schema, subscription id),
 * held on a connection of its own. The server releases it when that connection ends, so a holder
 * that is killed frees it at once, and a standing-by process takes over at its next try.
 */
import pg from 'pg';
import type { Lease } from '@parcel-logistics/eventstore/adapter';

const sleep = (ms: number, signal: AbortSignal): Promise<void> =>
  new Promise((resolve) => {
    const timer = setTimeout(done, ms);
    signal.addEventListener('abort', done, { once: true });
    function done() {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    }
  });

export function createPgLease(connectionString: string, schema: string, subscriptionId: string, retryMs = 1000): Lease {
  let client: pg.Client | undefined;
  let held = false;

  const drop = (c: pg.Client): void => {
    if (client !== c) return;
    client = undefined;
    held = false;
    c.end().catch(() => undefined);
  };

  return {
    get held() {
      return held;
    },
    async acquire(stopping) {
      while (!stopping.aborted && !held) {
        const c =
          client ??
          new pg.Client({ connectionString, application_name: `parcel-lease-${subscriptionId}`.slice(0, 63) });
        try {
          if (!client) {
            client = c;
            c.on('error', () => drop(c));
            c.on('end', () => drop(c));
            await c.connect();
          }
          const { rows } = await c.query<{ ok: boolean }>(
            'SELECT pg_try_advisory_lock(hashtext($1), hashtext($2)) AS ok',
            [schema, subscriptionId],
          );
          held = client === c && rows[0]!.ok;
        } catch {
          drop(c);
        }
        if (!held) await sleep(retryMs, stopping);
      }
    },
    async release() {
      const c = client;
      if (c) drop(c);
    },
  };
}
