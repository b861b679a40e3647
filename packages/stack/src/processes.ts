/**
 * Starts and stops the stack of ./description.ts on this machine, one `node <script>` per process,
 * on the Kafka, PostgreSQL and MongoDB-compatible server of infra/up.sh.
 */
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { createWriteStream, existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import type { WriteStream } from 'node:fs';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { MongoClient } from 'mongodb';
import pg from 'pg';
import { environmentOf, specOf, STACK } from './description.ts';
import type { Counts, ServiceName } from './description.ts';

const ROOT = path.resolve(import.meta.dirname, '../../..');
const START_TIMEOUT_MS = 60_000;

export interface Infra {
  kafka: string;
  pg: string;
  mongo: string;
}

/** The servers infra/up.sh exports. */
export function requireInfra(): Infra {
  const { PARCEL_KAFKA_BROKERS: kafka, PARCEL_PG_URL: pg, PARCEL_MONGO_URL: mongo } = process.env;
  if (!kafka || !pg || !mongo)
    throw new Error(
      'the distributed stack needs Kafka, PostgreSQL and MongoDB: eval "$(bash infra/up.sh)" first (npm test and npm run services do)',
    );
  return { kafka, pg, mongo };
}

export interface ServiceProcess {
  service: ServiceName;
  /** `<service>-<n>`, n counting from 1 in the order they were started. */
  name: string;
  child: ChildProcess;
  /** HTTP port (gateway, sandbox) or health port (the others). */
  port: number;
  url: string;
  /** The operator API's address, when the process serves one (a gateway with PARCEL_ADMIN_TOKEN). */
  adminUrl?: string;
  exited: Promise<number | null>;
  /** Its output, when the stack has a log directory. */
  log?: string;
}

export interface StackOptions {
  infra: Infra;
  /** The PostgreSQL schemas (events and keys) and MongoDB database of the services' state. */
  stores: Stores;
  /** The master key's file (base64 of 32 bytes): `masterKeyFile` makes one. */
  masterKeyFile: string;
  /** Drops `stores` at stop(): a run's own state. */
  dropStores?: boolean;
  /** Fixed ports: the gateways on `gateway`, `gateway + 1`, ...; the sandbox on `sandbox`. Without, each process takes a free one. */
  ports?: { gateway: number; sandbox: number };
  /** Processes per service where they differ from the description (a variant). */
  counts?: Counts;
  /** Over the description's settings, for every process. */
  env?: Record<string, string>;
  /** Each process's output goes to `<logDir>/<name>.log`. */
  logDir?: string;
  /** Echoes each process's output lines, prefixed with its name. */
  echo?: boolean;
}

export interface Stores {
  pgSchema: string;
  pgKeysSchema: string;
  mongoDb: string;
}

/** A master key in `file`, made (base64 of 32 random bytes, owner-only) unless the file is there. */
export function masterKeyFile(file: string): string {
  if (!existsSync(file)) {
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, `${randomBytes(32).toString('base64')}\n`, { mode: 0o600, flag: 'wx' });
  }
  return file;
}

const HOST = '127.0.0.1';
const running = (p: ServiceProcess) => p.child.exitCode === null && p.child.signalCode === null;

export class Stack {
  readonly processes: ServiceProcess[] = [];
  private readonly options: StackOptions;

  constructor(options: StackOptions) {
    this.options = options;
  }

  get stores(): Stores {
    return this.options.stores;
  }

  of(service: ServiceName): ServiceProcess[] {
    return this.processes.filter((p) => p.service === service && running(p));
  }

  /** The gateways that listen. */
  get gateways(): string[] {
    return this.of('gateway').flatMap((p) => (p.url ? [p.url] : []));
  }

  get sandboxUrl(): string {
    return this.of('carrier-sandbox').find((p) => p.url)?.url ?? '';
  }

  /** The environment of the next process of `service`, from the description. */
  private environment(service: ServiceName, extra: Record<string, string> = {}): Record<string, string> {
    const { infra, stores, masterKeyFile } = this.options;
    const placement = {
      ...infra,
      ...stores,
      masterKeyFile,
      host: HOST,
      port: this.fixedPort(service),
      // A fixed gateway port's + 1000 (9080 beside 8080), or any free one.
      adminPort: this.fixedPort(service) === 0 ? 0 : this.fixedPort(service) + 1000,
      gatewayUrl: this.gateways[0] ?? '',
      sandboxUrl: this.sandboxUrl,
    };
    return { ...environmentOf(service, placement), ...this.options.env, ...extra };
  }

  private fixedPort(service: ServiceName): number {
    const { ports } = this.options;
    const started = this.processes.filter((p) => p.service === service).length;
    if (ports && service === 'gateway') return ports.gateway + started;
    if (ports && service === 'carrier-sandbox') return ports.sandbox + started;
    return 0;
  }

  /** Starts one process of `service` and resolves once it logged that it listens. */
  async start(service: ServiceName, extra: Record<string, string> = {}): Promise<ServiceProcess> {
    const spec = specOf(service);
    const name = `${service}-${this.processes.filter((p) => p.service === service).length + 1}`;
    const env = this.environment(service, extra);
    const child = spawn(process.execPath, [path.join(ROOT, spec.script)], {
      cwd: ROOT,
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const proc: ServiceProcess = {
      service,
      name,
      child,
      port: 0,
      url: '',
      exited: new Promise((resolve) => child.once('exit', (code) => resolve(code))),
    };
    // Counted at once, so that a second start of the same service gets the next name and port.
    this.processes.push(proc);
    let log: WriteStream | undefined;
    if (this.options.logDir) {
      mkdirSync(this.options.logDir, { recursive: true });
      proc.log = path.join(this.options.logDir, `${name}.log`);
      log = createWriteStream(proc.log);
      child.stdout!.pipe(log, { end: false });
      child.stderr!.pipe(log, { end: false });
      // After 'close', not 'exit': the pipes may still hold its last lines at 'exit'.
      child.once('close', () => log!.end());
    }
    const stderr: string[] = [];
    const lastLines: string[] = [];
    child.stderr!.on('data', (chunk: Buffer) => stderr.push(chunk.toString()));
    const output = () =>
      `${[...lastLines, stderr.join('')].join('\n').slice(-2000)}${proc.log ? ` (log: ${proc.log})` : ''}`;
    proc.port = await new Promise<number>((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`${name} did not start within ${START_TIMEOUT_MS / 1000} s: ${output()}`)),
        START_TIMEOUT_MS,
      );
      void proc.exited.then((code) => {
        clearTimeout(timer);
        reject(new Error(`${name} exited with ${code}: ${output()}`));
      });
      createInterface({ input: child.stdout! }).on('line', (line) => {
        if (this.options.echo) console.log(`[${name}] ${line}`);
        if (lastLines.push(line) > 10) lastLines.shift();
        try {
          const entry = JSON.parse(line) as {
            msg?: string;
            port?: number;
            healthPort?: number;
            adminPort?: number;
            url?: string;
          };
          if (entry.adminPort) proc.adminUrl = `http://${HOST}:${entry.adminPort}`;
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
    proc.url = `http://${HOST}:${proc.port}`;
    return proc;
  }

  /**
   * Every process of the description (with `counts` over its own and the options'), each service
   * once the services it needs listen; resolves once every /readyz answers.
   */
  async startAll(counts: Counts = {}): Promise<void> {
    const planned = STACK.map((spec) => ({
      spec,
      count: counts[spec.service] ?? this.options.counts?.[spec.service] ?? spec.count,
    }));
    const started = new Set<ServiceName>();
    while (started.size < planned.length) {
      const stage = planned.filter(({ spec }) => !started.has(spec.service) && spec.needs.every((n) => started.has(n)));
      if (stage.length === 0) throw new Error('the stack description has a cycle in `needs`');
      await Promise.all(
        stage.flatMap(({ spec, count }) => Array.from({ length: count }, () => this.start(spec.service))),
      );
      for (const { spec } of stage) started.add(spec.service);
    }
    await Promise.all(this.processes.map((p) => waitReady(p)));
  }

  /** `kill -9`: no clean stop, nothing flushed. */
  async kill(proc: ServiceProcess): Promise<void> {
    proc.child.kill('SIGKILL');
    await proc.exited;
  }

  /** SIGTERM to every process (SIGKILL to one not gone within 10 s); then drops the stores if they were the run's own. */
  async stop(): Promise<void> {
    await Promise.all(
      this.processes.map(async (p) => {
        if (!running(p)) return;
        p.child.kill('SIGTERM');
        const done = await Promise.race([
          p.exited.then(() => true),
          new Promise((r) => setTimeout(() => r(false), 10_000)),
        ]);
        if (!done) p.child.kill('SIGKILL');
        await p.exited;
      }),
    );
    if (this.options.dropStores) await this.dropStores();
  }

  /** mongo-java-server keeps every database in memory: a run's data goes when the run ends. */
  private async dropStores(): Promise<void> {
    const { infra, stores } = this.options;
    const db = new pg.Client({ connectionString: infra.pg });
    const mongo = new MongoClient(infra.mongo);
    try {
      await Promise.all([db.connect(), mongo.connect()]);
      await Promise.all([
        db.query(`DROP SCHEMA IF EXISTS "${stores.pgSchema}" CASCADE`),
        db.query(`DROP SCHEMA IF EXISTS "${stores.pgKeysSchema}" CASCADE`),
        mongo.db(stores.mongoDb).dropDatabase(),
      ]);
    } finally {
      await Promise.allSettled([db.end(), mongo.close()]);
    }
    rmSync(path.dirname(this.options.masterKeyFile), { recursive: true, force: true });
  }
}

/** Settings of a run that drives load and waits on carriers (tests, benchmarks): no rate limit, carrier retries every 200 ms. */
export const RUN_SETTINGS: Readonly<Record<string, string>> = {
  PARCEL_RATE_LIMIT_RPS: '0',
  PARCEL_CARRIER_RETRY_MS: '200',
};

/**
 * A stack of its own for one run (the e2e suites, the benchmarks): free ports, PostgreSQL schemas
 * (events, keys), a MongoDB database and a master key made for the run and dropped by stop(), RUN_SETTINGS. Kafka's topics are
 * shared (the project's, created by infra/topics.sh).
 */
export function runStack(
  options: { env?: Record<string, string>; counts?: Counts; echo?: boolean; logDir?: string } = {},
): Stack {
  const runId = `run_${randomUUID().slice(0, 8)}`;
  return new Stack({
    infra: requireInfra(),
    stores: { pgSchema: runId, pgKeysSchema: `${runId}_keys`, mongoDb: runId },
    masterKeyFile: masterKeyFile(path.join(mkdtempSync(path.join(tmpdir(), 'parcel-stack-')), 'master.key')),
    dropStores: true,
    counts: options.counts,
    env: { ...RUN_SETTINGS, ...options.env },
    echo: options.echo,
    logDir: options.logDir,
  });
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
