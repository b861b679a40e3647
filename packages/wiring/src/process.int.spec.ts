/** The health server of the services without an HTTP API: /healthz, /readyz and /metrics. */
import type { Server } from 'node:http';
import { listeningPort, startHealthServer } from './process.ts';
import type { MetricsEndpoint } from './process.ts';

const servers: Server[] = [];
afterAll(() => Promise.all(servers.map((s) => new Promise((resolve) => s.close(resolve)))));

async function serve(ready: () => Promise<unknown>, metrics?: MetricsEndpoint): Promise<string> {
  const server = await startHealthServer(0, '127.0.0.1', ready, metrics);
  servers.push(server);
  return `http://127.0.0.1:${listeningPort(server)}`;
}

const TEXT = 'text/plain; version=0.0.4; charset=utf-8';

test('GET /metrics answers what the metrics render, as Prometheus text, collected at each request', async () => {
  let scrapes = 0;
  const url = await serve(async () => undefined, {
    contentType: TEXT,
    render: async () => `# TYPE up gauge\nup ${++scrapes}\n`,
  });
  const first = await fetch(`${url}/metrics`);
  expect(first.status).toBe(200);
  expect(first.headers.get('content-type')).toBe(TEXT);
  expect(await first.text()).toBe('# TYPE up gauge\nup 1\n');
  expect(await (await fetch(`${url}/metrics`)).text()).toBe('# TYPE up gauge\nup 2\n');
  expect(await (await fetch(`${url}/healthz`)).json()).toEqual({ status: 'ok' });
  expect(await (await fetch(`${url}/readyz`)).json()).toEqual({ status: 'ready' });
});

test('a render that fails answers 500 and the server goes on; without metrics /metrics is not found', async () => {
  const failing = await serve(async () => undefined, {
    contentType: TEXT,
    render: () => Promise.reject(new Error('collect failed')),
  });
  const failed = await fetch(`${failing}/metrics`);
  expect(failed.status).toBe(500);
  expect(await failed.json()).toEqual({ code: 1, message: 'server error', data: [] });
  expect((await fetch(`${failing}/healthz`)).status).toBe(200);
  const without = await serve(() => Promise.reject(new Error('down')));
  expect((await fetch(`${without}/metrics`)).status).toBe(404);
  expect((await fetch(`${without}/readyz`)).status).toBe(503);
});
