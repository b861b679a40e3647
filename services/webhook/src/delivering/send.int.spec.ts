/**
 * Webhook destinations: every refused destination class is tried, as a literal address and, for
 * loopback, through DNS resolution (`localhost`); redirects are not followed; the deadline holds;
 * an answer's body is read only up to the bound.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { ANSWER_KEPT_BYTES, keptAlive, send } from './send.ts';
import type { Connections } from './send.ts';

const refuse = { timeoutMs: 2000, allowPrivate: false };

test.each([
  ['unspecified', 'http://0.0.0.0/'],
  ['loopback', 'http://127.0.0.1:9/'],
  ['loopback', 'http://[::1]:9/'],
  ['private', 'http://10.0.0.1/'],
  ['private', 'http://172.16.0.1/'],
  ['private', 'http://192.168.0.1/'],
  ['linkLocal', 'http://169.254.169.254/latest/meta-data'],
  ['linkLocal', 'http://[fe80::1]/'],
  ['uniqueLocal', 'http://[fd00::1]/'],
  ['carrierGradeNat', 'http://100.64.0.1/'],
  ['multicast', 'http://224.0.0.1/'],
  ['broadcast', 'http://255.255.255.255/'],
  ['reserved', 'http://240.0.0.1/'],
  ['loopback', 'http://[::ffff:127.0.0.1]:9/'],
  ['loopback', 'http://2130706433:9/'],
])('%s destination %s is refused before any connection', async (range, url) => {
  const attempt = await send(url, {}, '{}', refuse);
  expect(attempt).toEqual({
    outcome: 'failed',
    status: null,
    reason: `refused destination: ${range} address`,
    answer: '',
  });
});

describe('against a local server', () => {
  let server: http.Server;
  let base: string;
  const hits: string[] = [];
  let connected = 0;
  beforeAll(async () => {
    server = http.createServer((req, res) => {
      hits.push(req.url!);
      if (req.url === '/redirect') return res.writeHead(302, { location: '/target' }).end();
      if (req.url === '/slow') return setTimeout(() => res.end('late'), 1500);
      if (req.url === '/huge') {
        res.writeHead(200);
        const chunk = Buffer.alloc(64 * 1024, 120);
        const write = () => res.write(chunk) && setImmediate(write);
        return write();
      }
      if (req.url === '/429') return res.writeHead(429).end();
      if (req.url === '/400') return res.writeHead(400).end('bad é request');
      res.end('ok');
    });
    server.on('connection', () => connected++);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });
  const allow = { timeoutMs: 500, allowPrivate: true };

  test('a host name is checked after DNS resolution: localhost is refused unless allowed', async () => {
    const port = (server.address() as AddressInfo).port;
    const refused = await send(`http://localhost:${port}/ok`, {}, '{}', refuse);
    expect(refused).toMatchObject({ outcome: 'failed', status: null });
    expect((refused as { reason: string }).reason).toMatch(
      /^refused destination: localhost resolves to loopback address/,
    );
    expect(hits).not.toContain('/ok');
    expect(await send(`http://localhost:${port}/ok`, {}, '{}', allow)).toEqual({
      outcome: 'delivered',
      status: 200,
      answer: 'ok',
    });
  });

  test('a redirect is not followed and is not a delivery', async () => {
    hits.length = 0;
    expect(await send(`${base}/redirect`, {}, '{}', allow)).toEqual({
      outcome: 'failed',
      status: 302,
      reason: 'HTTP 302',
      answer: '',
    });
    expect(hits).toEqual(['/redirect']);
  });

  test('no answer within the deadline is retried; 429 is retried; 400 is not', async () => {
    expect(await send(`${base}/slow`, {}, '{}', allow)).toEqual({
      outcome: 'retry',
      status: null,
      reason: 'no answer within 500 ms',
      answer: '',
    });
    expect(await send(`${base}/429`, {}, '{}', allow)).toEqual({
      outcome: 'retry',
      status: 429,
      reason: 'HTTP 429',
      answer: '',
    });
    expect(await send(`${base}/400`, {}, '{}', allow)).toEqual({
      outcome: 'failed',
      status: 400,
      reason: 'HTTP 400',
      answer: 'bad \u00e9 request',
    });
  });

  test('an endless answer is read only up to the bound, and only its first bytes are kept in the delivery log', async () => {
    expect(await send(`${base}/huge`, {}, '{}', { ...allow, timeoutMs: 5000 })).toEqual({
      outcome: 'delivered',
      status: 200,
      answer: 'x'.repeat(ANSWER_KEPT_BYTES),
    });
  });

  describe('kept-alive connections', () => {
    const connectionsFor = async (urls: string[], connections?: Connections) => {
      const before = connected;
      const attempts = [];
      for (const url of urls) attempts.push(await send(url, {}, '{}', { ...allow, timeoutMs: 5000, connections }));
      return { attempts, opened: connected - before };
    };

    test('an answer read to its end leaves its connection to the next attempt', async () => {
      const connections = keptAlive(true);
      try {
        const { attempts, opened } = await connectionsFor([`${base}/ok`, `${base}/400`, `${base}/ok`], connections);
        expect(attempts.map((a) => a.outcome)).toEqual(['delivered', 'failed', 'delivered']);
        expect(opened).toBe(1);
      } finally {
        connections.close();
      }
      expect((await connectionsFor([`${base}/ok`, `${base}/ok`])).opened).toBe(2);
    });

    test('an answer cut at the bound, or late, closes its connection', async () => {
      const connections = keptAlive(true);
      try {
        expect((await connectionsFor([`${base}/huge`, `${base}/ok`], connections)).opened).toBe(2);
        const late = await send(`${base}/slow`, {}, '{}', { ...allow, connections });
        expect(late.outcome).toBe('retry');
        expect((await connectionsFor([`${base}/ok`], connections)).opened).toBe(1);
      } finally {
        connections.close();
      }
    });

    test('a new connection is still checked after DNS resolution', async () => {
      const port = (server.address() as AddressInfo).port;
      const connections = keptAlive(false);
      try {
        const refused = await send(`http://localhost:${port}/ok`, {}, '{}', { ...refuse, connections });
        expect((refused as { reason: string }).reason).toMatch(
          /^refused destination: localhost resolves to loopback address/,
        );
      } finally {
        connections.close();
      }
    });
  });
});
