/**
 * One LISTEN connection per store: a commit by any process (NOTIFY in the append transaction)
 * wakes the subscriptions at once. Losing it costs latency only, since subscriptions also poll;
 * it reconnects after `retryMs`.
 */
import pg from 'pg';

export interface PgListener {
  /** Connects on first use. */
  start(): void;
  stop(): Promise<void>;
}

export function createPgListener(
  connectionString: string,
  channel: string,
  onNotify: () => void,
  retryMs = 1000,
): PgListener {
  let client: pg.Client | undefined;
  let started = false;
  let stopped = false;
  let retry: NodeJS.Timeout | undefined;
  let connecting: Promise<void> | undefined;

  const connectNow = () => {
    connecting = connect().finally(() => (connecting = undefined));
  };
  const reconnectLater = () => {
    if (!stopped) retry = setTimeout(connectNow, retryMs);
  };

  async function connect(): Promise<void> {
    const candidate = new pg.Client({ connectionString, application_name: 'parcel-eventstore-listen' });
    candidate.on('notification', () => onNotify());
    candidate.on('error', () => undefined); // 'end' follows and reconnects
    candidate.on('end', () => {
      if (client !== candidate) return;
      client = undefined;
      reconnectLater();
    });
    try {
      await candidate.connect();
      await candidate.query(`LISTEN ${channel}`);
    } catch {
      await candidate.end().catch(() => undefined);
      reconnectLater();
      return;
    }
    if (stopped) {
      await candidate.end().catch(() => undefined);
      return;
    }
    client = candidate;
    // Commits made while no connection was listening.
    onNotify();
  }

  return {
    start() {
      if (started || stopped) return;
      started = true;
      connectNow();
    },
    async stop() {
      stopped = true;
      clearTimeout(retry);
      await connecting;
      const current = client;
      client = undefined;
      await current?.end().catch(() => undefined);
    },
  };
}
