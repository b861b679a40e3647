/**
 * docker-compose.yml built and run for real, under podman, on a machine without an image registry:
 * infra/containers/build.sh makes the images (Debian from debootstrap, Node 24, Kafka, PostgreSQL,
 * mongo-java-server, the OTLP receiver standing in for Jaeger, and the project's Dockerfile), and
 * infra/containers/compose.ts brings the stack up with podman-compose and the override
 * infra/containers/compose.local.yml (no KurrentDB), plus a webhook receiver container. Against
 * gateway-1 and gateway-2 on the host's loopback: the README's calling-it flow, a webhook delivered
 * to the receiver and verified with `standardwebhooks`, `podman kill` of an order container under
 * a small load with no acknowledged order lost, and one trace through gateway, order and tracking
 * read back from the receiver. Then down with the volumes, and nothing of the project left.
 *
 * Runs with PARCEL_COMPOSE_TEST=1 (scripts/test.sh sets it in its serial pass). Skipped, with the
 * reason in its title, without it, or where podman, podman-compose or debootstrap is missing or
 * podman cannot run a container (not root). Its durations: docs/compose.md.
 */
import { spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { cpSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { down, leftovers, podman, up, type StackOptions } from '../infra/containers/compose.ts';
import type { Span } from '../infra/containers/otlp/receiver.ts';
import { clientB, realTime, signedHeaders, type Target } from './support/client.ts';
import { orderBody } from './support/orders.ts';

const ROOT = path.resolve(__dirname, '..');

function whyNot(): string | undefined {
  // It loads both cores for minutes: scripts/test.sh runs it in its serial pass.
  if (process.env.PARCEL_COMPOSE_TEST !== '1')
    return 'runs in the serial pass of npm test, or with PARCEL_COMPOSE_TEST=1';
  for (const tool of ['podman', 'podman-compose', 'debootstrap'])
    if (spawnSync('sh', ['-c', `command -v ${tool}`]).status !== 0)
      return `${tool} not found (scripts/test.sh installs it with infra/apt.sh)`;
  if (process.getuid?.() !== 0) return 'not root: the images are built with rootful podman and debootstrap';
  return undefined;
}
const reason = whyNot();
const maybe = reason ? test.skip : test;
const title = (t: string) => (reason ? `${t} [SKIPPED: ${reason}]` : t);

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
async function eventually<T>(check: () => Promise<T>, timeoutMs = 60_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      return await check();
    } catch (error) {
      if (Date.now() > deadline) throw error;
      await sleep(500);
    }
  }
}
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

/** `bash infra/containers/build.sh`, its output kept for the failure message; seconds it took. */
function build(): Promise<number> {
  const t0 = Date.now();
  return new Promise((resolve, reject) => {
    const child = spawn('bash', ['infra/containers/build.sh'], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (d: Buffer) => (output += d.toString()));
    child.stderr.on('data', (d: Buffer) => (output += d.toString()));
    child.on('close', (code) =>
      code === 0
        ? resolve((Date.now() - t0) / 1000)
        : reject(new Error(`infra/containers/build.sh exited with ${code}:\n${output.slice(-4000)}`)),
    );
  });
}

/** test/webhooks/receiver.mjs with the packages it imports, copied for a container to mount. */
function receiverDir(): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'parcel-compose-receiver-'));
  cpSync(path.join(ROOT, 'test/webhooks/receiver.mjs'), path.join(dir, 'receiver.mjs'));
  const pkgDir = (name: string, from: string) => {
    const manifest = require.resolve(`${name}/package.json`, { paths: [from] });
    return path.dirname(manifest);
  };
  const sw = pkgDir('standardwebhooks', path.join(ROOT, 'test'));
  for (const [name, from] of [
    ['standardwebhooks', path.join(ROOT, 'test')],
    ['@stablelib/base64', sw],
    ['fast-sha256', sw],
  ] as const)
    cpSync(pkgDir(name, from), path.join(dir, 'node_modules', name), { recursive: true, dereference: true });
  return dir;
}

const project = `parcel-it-${process.pid}`;
let options: StackOptions;
let gateways: Target[] = [];
let spansUrl = '';
let receiverUrl = '';
let pgUrl = '';
let receiverFiles = '';
let wentDown = false;
const timings: Record<string, number> = {};

beforeAll(async () => {
  if (reason) return;
  timings.buildS = await build();
  const [gw1, gw2, sandbox, spans, otlpGrpc, otlpHttp, kafka, pgPort, kurrent, mongo, receiver] = await Promise.all(
    Array.from({ length: 11 }, freePort),
  );
  receiverFiles = receiverDir();
  const override = path.join(receiverFiles, 'compose.test.yml');
  // The receiver runs in the stack's network, on a private address: the webhook service may
  // deliver there only with PARCEL_WEBHOOK_ALLOW_PRIVATE (packages/webhooks, destinations).
  writeFileSync(
    override,
    JSON.stringify({
      services: {
        'webhook-receiver': {
          image: 'localhost/parcel-node:local',
          command: ['node', '/receiver/receiver.mjs'],
          working_dir: '/receiver',
          environment: { RECEIVER_HOST: '0.0.0.0', RECEIVER_PORT: '8099' },
          volumes: [`${receiverFiles}:/receiver:ro`],
          ports: [`127.0.0.1:${receiver}:8099`],
        },
        webhook: {
          environment: { PARCEL_WEBHOOK_ALLOW_PRIVATE: 'on' },
          depends_on: { 'webhook-receiver': { condition: 'service_started' } },
        },
      },
    }),
  );
  options = {
    project,
    extraFiles: [override],
    env: {
      PARCEL_GATEWAY_1_PORT: String(gw1),
      PARCEL_GATEWAY_2_PORT: String(gw2),
      PARCEL_SANDBOX_PORT: String(sandbox),
      PARCEL_JAEGER_UI_PORT: String(spans),
      PARCEL_OTLP_GRPC_PORT: String(otlpGrpc),
      PARCEL_OTLP_HTTP_PORT: String(otlpHttp),
      PARCEL_KAFKA_HOST_PORT: String(kafka),
      PARCEL_PG_HOST_PORT: String(pgPort),
      PARCEL_KURRENTDB_HOST_PORT: String(kurrent),
      PARCEL_MONGO_HOST_PORT: String(mongo),
    },
    timeoutMs: 240_000,
    log: (line) => process.stderr.write(`[compose ${project}] ${line}\n`),
  };
  gateways = [realTime(`http://127.0.0.1:${gw1}`), realTime(`http://127.0.0.1:${gw2}`)];
  spansUrl = `http://127.0.0.1:${spans}/api/spans`;
  receiverUrl = `http://127.0.0.1:${receiver}`;
  pgUrl = `postgres://parcel:parcel@127.0.0.1:${pgPort}/parcel`;
  const t0 = Date.now();
  try {
    await up(options);
  } catch (error) {
    const names = await podman([
      'ps',
      '-a',
      '--filter',
      `label=io.podman.compose.project=${project}`,
      '--format',
      '{{.Names}} {{.Status}}',
    ]);
    const logs: string[] = [];
    for (const line of names.split('\n').filter(Boolean)) {
      const name = line.split(' ')[0]!;
      const out = await podman(['logs', '--tail', '15', name]).catch((e: unknown) => String(e));
      logs.push(`--- ${line}\n${out}`);
    }
    throw new Error(`${String(error)}\n${logs.join('\n')}`, { cause: error });
  }
  timings.upS = (Date.now() - t0) / 1000;
  process.stderr.write(`[compose ${project}] build ${timings.buildS} s, up ${timings.upS} s\n`);
}, 3_600_000);

afterAll(async () => {
  if (reason) return;
  if (!wentDown && options) await down(options).catch(() => undefined);
  if (receiverFiles) rmSync(receiverFiles, { recursive: true, force: true });
}, 180_000);

describe('the compose stack under podman (docker-compose.yml + infra/containers/compose.local.yml)', () => {
  maybe(
    title(
      'calling it: interface B signed on gateway-1, an order created there, its status and label through gateway-2',
    ),
    async () => {
      const [gw1, gw2] = gateways as [Target, Target];
      const stations = await clientB(gw1).get('station/get-stations', { postcode: '637586' });
      expect(stations.body.code).toBe(0);
      expect(stations.body.data[0].Station_Code).toBe('SGL0150');
      const body = orderBody();
      const created = await clientB(gw1).post('order/create-order', body);
      expect(created.body).toMatchObject({ code: 0, data: { custom_tracking_num: body.custom_tracking_num } });
      const tn: string = created.body.data.wmg_tracking_num;
      await eventually(async () =>
        expect((await clientB(gw2).get('order/query-status', { tracking_num: tn })).body.data.last_status).toBe(
          'DR_DR',
        ),
      );
      const label = await eventually(async () => {
        const reply = await clientB(gw2).get('order-shipping-label/get-shipping-label', { tracking_num: tn });
        expect(reply.body.code).toBe(0);
        return reply;
      });
      const pdf = Buffer.from(String(label.body.data.base64), 'base64');
      expect(pdf.subarray(0, 5).toString()).toBe('%PDF-');
    },
    120_000,
  );

  maybe(
    title('a webhook reaches the receiver container, signed for its endpoint'),
    async () => {
      const [gw1, gw2] = gateways as [Target, Target];
      const created = await clientB(gw1).post('webhook/create-endpoint', {
        url: 'http://webhook-receiver:8099/hook',
        event_types: ['ParcelRegistered'],
      });
      expect(created.body.code).toBe(0);
      await fetch(`${receiverUrl}/config`, {
        method: 'POST',
        body: JSON.stringify({ secrets: [created.body.data.secret], failFirst: 0 }),
      });
      const order = await clientB(gw2).post('order/create-order', orderBody());
      expect(order.body.code).toBe(0);
      const tn: string = order.body.data.wmg_tracking_num;
      const hit = await eventually(async () => {
        const received = (await (await fetch(`${receiverUrl}/received`)).json()) as {
          verified: boolean;
          body: { data?: { tracking_num?: string } };
        }[];
        const mine = received.filter((r) => JSON.stringify(r.body).includes(tn));
        expect(mine.length).toBeGreaterThan(0);
        return mine;
      }, 90_000);
      expect(hit.every((r) => r.verified)).toBe(true);
    },
    120_000,
  );

  maybe(
    title('podman kill of an order container under load: every acknowledged order is stored once and readable'),
    async () => {
      const acknowledged: { ref: string; tn: string }[] = [];
      let failed = 0;
      let running = true;
      const workers = Array.from({ length: 4 }, async (_, w) => {
        for (let n = 0; running; n++) {
          const body = orderBody();
          try {
            const reply = await clientB(gateways[(w + n) % 2]!).post('order/create-order', body);
            if (reply.status === 200 && reply.body.code === 0)
              acknowledged.push({ ref: String(body.custom_tracking_num), tn: reply.body.data.wmg_tracking_num });
            else failed++;
          } catch {
            failed++;
            await sleep(100);
          }
        }
      });
      await sleep(5000);
      const before = acknowledged.length;
      await podman(['kill', '--signal', 'KILL', `${project}_order_1`]);
      await sleep(10_000);
      running = false;
      await Promise.all(workers);
      process.stderr.write(
        `[compose ${project}] load: ${acknowledged.length} acknowledged (${before} before the kill), ${failed} failed\n`,
      );
      expect(acknowledged.length).toBeGreaterThan(before);
      // Each acknowledged order is in the event store once (its reference claimed once) ...
      const db = new pg.Client({ connectionString: pgUrl });
      await db.connect();
      try {
        const { rows } = await db.query<{ stream_name: string; n: string }>(
          `SELECT stream_name, count(*)::text AS n FROM parcel.events
            WHERE type = 'ReferenceClaimed.v1' AND stream_name = ANY($1) GROUP BY stream_name`,
          [acknowledged.map((a) => `reference-demo/${a.ref}`)],
        );
        const claims = new Map(rows.map((r) => [r.stream_name.slice('reference-demo/'.length), Number(r.n)]));
        expect(acknowledged.filter((a) => claims.get(a.ref) !== 1)).toEqual([]);
      } finally {
        await db.end();
      }
      // ... and every one answers its status query.
      for (const { tn } of acknowledged)
        await eventually(async () =>
          expect((await clientB(gateways[1]!).get('order/query-status', { tracking_num: tn })).body.code).toBe(0),
        );
    },
    180_000,
  );

  maybe(
    title('a create-order is one trace through gateway, order and tracking, read from the OTLP receiver'),
    async () => {
      const traceId = randomBytes(16).toString('hex');
      const parent = randomBytes(8).toString('hex');
      const [gw1] = gateways as [Target];
      const body = JSON.stringify(orderBody());
      const reply = await fetch(`${gw1.url}/v1/openapi/order/create-order`, {
        method: 'POST',
        headers: {
          ...signedHeaders(gw1),
          'content-type': 'application/json',
          traceparent: `00-${traceId}-${parent}-01`,
        },
        body,
      });
      expect(((await reply.json()) as { code: number }).code).toBe(0);
      const spans = await eventually(async () => {
        const got = (await (await fetch(`${spansUrl}?traceId=${traceId}`)).json()) as { spans: Span[] };
        const services = new Set(got.spans.map((s) => s.service));
        expect({ services: [...services].sort(), spans: got.spans.map((s) => `${s.service} ${s.name}`) }).toEqual({
          services: expect.arrayContaining(['parcel-gateway', 'parcel-order', 'parcel-tracking']),
          spans: expect.anything(),
        });
        return got.spans;
      }, 60_000);
      // One tree from our caller's span: each span of the trace has its parent in it, and each span
      // of another trace (a consumer of a page of events) links to a span of it.
      const own = spans.filter((s) => s.traceId === traceId);
      const ids = new Set([parent, ...own.map((s) => s.spanId)]);
      expect(own.filter((s) => !ids.has(s.parentSpanId)).map((s) => `${s.service} ${s.name}`)).toEqual([]);
      const linked = spans.filter((s) => s.traceId !== traceId);
      expect(linked.filter((s) => !s.links.some((l) => l.traceId === traceId && ids.has(l.spanId)))).toEqual([]);
      expect(own.find((s) => s.service === 'parcel-gateway' && s.parentSpanId === parent)).toBeDefined();
      expect(own.some((s) => s.service === 'parcel-order')).toBe(true);
      const summary = [...new Set(spans.map((s) => `${s.service}${s.traceId === traceId ? '' : ' (linked)'}`))];
      process.stderr.write(`[compose ${project}] trace ${traceId}: ${spans.length} spans, ${summary.join(', ')}\n`);
    },
    90_000,
  );

  maybe(
    title('down removes the containers, the volumes and the network'),
    async () => {
      await down(options);
      wentDown = true;
      expect(await leftovers(project)).toEqual([]);
    },
    180_000,
  );
});
