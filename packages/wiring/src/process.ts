/** Process lifecycle of a service: health endpoints and a clean stop on SIGTERM/SIGINT. */
import { createServer } from 'node:http';
import type { Server } from 'node:http';
import type { Logger } from 'pino';

/** The process's metrics in the Prometheus text format (`createMetrics()` of @parcel-logistics/telemetry). */
export interface MetricsEndpoint {
  readonly contentType: string;
  render(): Promise<string>;
}

/** An answer of the health server: JSON, or text of its own type (`/metrics`). */
export type HealthAnswer = { status: number; body: unknown } | { status: number; text: string; contentType: string };

/** GET /healthz (alive), GET /readyz (its bus and stores answer; 503 otherwise) and, given metrics, GET /metrics. */
function healthHandler(ready: () => Promise<unknown>, metrics?: MetricsEndpoint) {
  return async (path: string): Promise<HealthAnswer> => {
    if (path === '/healthz') return { status: 200, body: { status: 'ok' } };
    if (path === '/metrics' && metrics) {
      try {
        return { status: 200, text: await metrics.render(), contentType: metrics.contentType };
      } catch {
        return { status: 500, body: { code: 1, message: 'server error', data: [] } };
      }
    }
    if (path !== '/readyz') return { status: 404, body: { code: 1, message: 'Api not found', data: [] } };
    try {
      await ready();
      return { status: 200, body: { status: 'ready' } };
    } catch {
      return { status: 503, body: { status: 'not ready' } };
    }
  };
}

export async function startHealthServer(
  port: number,
  host: string,
  ready: () => Promise<unknown>,
  metrics?: MetricsEndpoint,
): Promise<Server> {
  const handle = healthHandler(ready, metrics);
  const server = createServer((req, res) => {
    void handle(new URL(req.url ?? '/', 'http://x').pathname).then((answer) => {
      if ('text' in answer) {
        res.writeHead(answer.status, { 'content-type': answer.contentType });
        res.end(answer.text);
        return;
      }
      res.writeHead(answer.status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(answer.body));
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

/**
 * Starts a service without an HTTP API of its own: serves /healthz, /readyz and /metrics on `healthPort`,
 * logs `listening` with that port, and on SIGTERM/SIGINT stops the service, then closes its
 * resources in order, then flushes telemetry.
 */
export async function runService(options: {
  log: Logger;
  healthPort: number;
  host: string;
  service: { start(): Promise<void>; stop(): Promise<void> };
  ready: () => Promise<unknown>;
  resources: { close(): Promise<void> }[];
  telemetry: { shutdown(): Promise<void> };
  /** Served as GET /metrics. */
  metrics?: MetricsEndpoint;
}): Promise<void> {
  const { log, service } = options;
  await service.start();
  const health = await startHealthServer(options.healthPort, options.host, options.ready, options.metrics);
  log.info({ healthPort: listeningPort(health) }, 'listening');
  stopOnSignals(log, async () => {
    health.close();
    await service.stop();
    for (const resource of options.resources) await resource.close();
    await options.telemetry.shutdown();
  });
}
