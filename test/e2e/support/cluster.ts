/**
 * The distributed wiring as separate processes on the real Kafka, PostgreSQL and mongo-java-server
 * that `npm test` started (infra/up.sh): gateways, order, tracking, label and webhook services and
 * the LMX sandbox, each `node services/<name>/src/main.ts`. Every run gets its own PostgreSQL schema and
 * MongoDB database, dropped by `stop()`; Kafka topics are shared (the project's topics, created by
 * infra/topics.sh).
 */
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { MongoClient } from 'mongodb';
import pg from 'pg';

const ROOT = path.resolve(import.meta.dirname, '../../..');

export type ServiceName = 'gateway' | 'order' | 'tracking' | 'label' | 'webhook' | 'carrier-sandbox';

export interface ServiceProcess {
  name: ServiceName;
  child: ChildProcess;
  /** HTTP port (gateway, sandbox) or health port (the others). */
  port: number;
  url: string;
  exited: Promise<number | null>;
}

export function requireInfra(): { kafka: string; pg: string; mongo: string } {
  const { PARCEL_KAFKA_BROKERS: kafka, PARCEL_PG_URL: pg, PARCEL_MONGO_URL: mongo } = process.env;
  if (!kafka || !pg || !mongo) throw new Error('the e2e suites need Kafka, PostgreSQL and MongoDB: run them through `npm test` (or eval "$(infra/up.sh)")');
  return { kafka, pg, mongo };
}

export class Cluster {
  readonly runId = `e2e_${randomUUID().slice(0, 8)}`;
  readonly processes: ServiceProcess[] = [];
  private readonly infra = requireInfra();
  sandboxUrl = '';

  /** Variables every process of the cluster gets (a suite's settings). */
  private readonly shared: Record<string, string>;

  constructor(shared: Record<string, string> = {}) {
    this.shared = shared;
  }

  env(extra: Record<string, string> = {}): Record<string, string> {
    return {
      PARCEL_KAFKA_BROKERS: this.infra.kafka,
      PARCEL_PG_URL: this.infra.pg,
      PARCEL_PG_SCHEMA: this.runId,
      PARCEL_MONGO_URL: this.infra.mongo,
      PARCEL_MONGO_DB: this.runId,
      PARCEL_LMX_URL: this.sandboxUrl,
      PARCEL_RATE_LIMIT_RPS: '0',
      PARCEL_CARRIER_RETRY_MS: '200',
      HOST: '127.0.0.1',
      PORT: '0',
      HEALTH_PORT: '0',
      LOG_LEVEL: process.env.E2E_LOG_LEVEL ?? 'info',
      ...this.shared,
      ...extra,
    };
  }

  /** Starts one process and resolves once it logged its port. */
  async start(name: ServiceName, extra: Record<string, string> = {}): Promise<ServiceProcess> {
    const child = spawn(process.execPath, ['--max-old-space-size=256', path.join(ROOT, `services/${name}/src/main.ts`)], {
      cwd: ROOT,
      env: { ...process.env, ...this.env(extra) },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    const stderr: string[] = [];
    child.stderr!.on('data', (chunk: Buffer) => stderr.push(chunk.toString()));
    const port = await new Promise<number>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`${name} did not start within 60 s: ${stderr.join('').slice(-2000)}`)), 60_000);
      void exited.then((code) => reject(new Error(`${name} exited with ${code}: ${stderr.join('').slice(-2000)}`)));
      createInterface({ input: child.stdout! }).on('line', (line) => {
        if (process.env.E2E_ECHO) console.log(`[${name}] ${line}`);
        try {
          const entry = JSON.parse(line) as { msg?: string; port?: number; healthPort?: number; url?: string };
          const found = entry.port ?? entry.healthPort ?? (entry.url ? Number(new URL(entry.url).port) : undefined);
          if (found && /listening/.test(entry.msg ?? '')) {
            clearTimeout(timer);
            resolve(found);
          }
        } catch {
          // not a log line of ours
        }
      });
    });
    const proc: ServiceProcess = { name, child, port, url: `http://127.0.0.1:${port}`, exited };
    this.processes.push(proc);
    return proc;
  }

  /** Two gateways, the sandbox (calling the first gateway back), two order, one tracking and one label process. */
  async startAll(options: { gateways?: number; orders?: number } = {}): Promise<void> {
    const gateways = options.gateways ?? 2;
    const orders = options.orders ?? 2;
    const first = await this.start('gateway');
    const rest = Array.from({ length: gateways - 1 }, () => this.start('gateway'));
    const sandbox = await this.start('carrier-sandbox', { PARCEL_CARRIER_CALLBACK_URL: first.url });
    this.sandboxUrl = sandbox.url;
    await Promise.all([...rest, ...Array.from({ length: orders }, () => this.start('order')), this.start('tracking'), this.start('label')]);
    await Promise.all(this.processes.map((p) => waitReady(p)));
  }

  of(name: ServiceName): ServiceProcess[] {
    return this.processes.filter((p) => p.name === name && p.child.exitCode === null && p.child.signalCode === null);
  }

  get gateways(): string[] {
    return this.of('gateway').map((p) => p.url);
  }

  /** `kill -9`: no clean stop, nothing flushed. */
  async kill(proc: ServiceProcess): Promise<void> {
    proc.child.kill('SIGKILL');
    await proc.exited;
  }

  async stop(): Promise<void> {
    await Promise.all(
      this.processes.map(async (p) => {
        if (p.child.exitCode !== null || p.child.signalCode !== null) return;
        p.child.kill('SIGTERM');
        const done = await Promise.race([p.exited.then(() => true), new Promise((r) => setTimeout(() => r(false), 10_000))]);
        if (!done) p.child.kill('SIGKILL');
      }),
    );
    await this.dropStores();
  }

  /** mongo-java-server keeps every database in memory: a run's data goes when the run ends. */
  private async dropStores(): Promise<void> {
    const db = new pg.Client({ connectionString: this.infra.pg });
    const mongo = new MongoClient(this.infra.mongo);
    try {
      await Promise.all([db.connect(), mongo.connect()]);
      await Promise.all([db.query(`DROP SCHEMA IF EXISTS "${this.runId}" CASCADE`), mongo.db(this.runId).dropDatabase()]);
    } finally {
      await Promise.allSettled([db.end(), mongo.close()]);
    }
  }
}

export async function waitReady(proc: ServiceProcess, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      if ((await fetch(`${proc.url}/readyz`)).ok) return;
    } catch {
      // not yet
    }
    if (Date.now() > deadline) throw new Error(`${proc.name} on ${proc.url} not ready`);
    await new Promise((r) => setTimeout(r, 200));
  }
}
