/** Process lifecycle of a service: health endpoints and a clean stop on SIGTERM/SIGINT. */
import { createServer } from 'node:http';
import type { Server } from 'node:http';
import type { Logger } from 'pino';

/** GET /healthz (alive) and GET /readyz (its bus and stores answer; 503 otherwise). */
export function healthHandler(ready: () => Promise<unknown>) {
  return async (path: string): Promise<{ status: number; body: unknown }> => {
    if (path === '/healthz') return { status: 200, body: { status: 'ok' } };
    if (path !== '/readyz') return { status: 404, body: { code: 1, message: 'Api not found', data: [] } };
    try {
      await ready();
      return { status: 200, body: { status: 'ready' } };
    } catch {
      return { status: 503, body: { status: 'not ready' } };
    }
  };
}

export async function startHealthServer(port: number, host: string, ready: () => Promise<unknown>): Promise<Server> {
  const handle = healthHandler(ready);
  const server = createServer((req, res) => {
    void handle(new URL(req.url ?? '/', 'http://x').pathname).then(({ status, body }) => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(body));
    });
  });
  await new Promise<void>((resolve, reject) => server.once('error', reject).listen(port, host, () => resolve()));
  return server;
}

/** Runs `stop` once on SIGTERM or SIGINT, then exits (1 if stopping failed). */
export function stopOnSignals(log: Logger, stop: () => Promise<void>): void {
  let stopping = false;
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.on(signal, () => {
      if (stopping) return;
      stopping = true;
      log.info({ signal }, 'stopping');
      stop().then(
        () => process.exit(0),
        (err: unknown) => {
          log.error({ err }, 'stop failed');
          process.exit(1);
        },
      );
    });
  }
}

export const listeningPort = (server: Server): number => {
  const address = server.address();
  return typeof address === 'object' && address ? address.port : 0;
};
