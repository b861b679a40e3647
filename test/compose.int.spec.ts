/**
 * docker-compose.yml, Dockerfile and .dockerignore, checked without a Docker engine (there is
 * none on the project's machines): the compose file's structure against what the composition
 * roots need (packages/config, services/<name>/src/main.ts), the topics against
 * infra/topics.sh, and the image's entry paths against the repository. `docker compose config`
 * runs only when the docker client has the compose plugin; otherwise that test is reported as
 * skipped. Deterministic, no network. What this does not prove: see docs/compose.md.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { parse } from 'yaml';
import { loadSettings } from '@parcel/config';

// Jest runs this file as CommonJS, where __dirname is defined.
const ROOT = path.resolve(__dirname, '..');
const read = (file: string): string => readFileSync(path.join(ROOT, file), 'utf8');

// ------------------------------------------------------------------ the compose model

interface Healthcheck {
  test?: string | string[];
  disable?: boolean;
  interval?: string;
  timeout?: string;
  retries?: number;
}
interface Dependency {
  condition?: 'service_started' | 'service_healthy' | 'service_completed_successfully';
}
interface ComposeService {
  image?: string;
  build?: { context?: string; dockerfile?: string } | string;
  command?: string[] | string;
  entrypoint?: string[] | string;
  environment?: Record<string, string | number | boolean | null> | string[];
  ports?: (string | { published?: string | number; target?: number; host_ip?: string; protocol?: string })[];
  volumes?: (string | { type?: string; source?: string; target?: string })[];
  depends_on?: Record<string, Dependency> | string[];
  healthcheck?: Healthcheck;
  deploy?: { replicas?: number };
  restart?: string;
}
interface ComposeFile {
  name?: string;
  services: Record<string, ComposeService>;
  volumes?: Record<string, unknown>;
}

/** Compose's interpolation (`${VAR}`, `${VAR:-default}`, `${VAR-default}`, `$$`) against `env`. */
function interpolate(value: string, env: Record<string, string | undefined>): string {
  return value.replace(/\$\$|\$\{([A-Za-z_][A-Za-z0-9_]*)(?:(:?)-([^}]*))?\}|\$([A-Za-z_][A-Za-z0-9_]*)/g, (match, name?: string, colon?: string, fallback?: string, bare?: string) => {
    if (match === '$$') return '$';
    const key = (name ?? bare) as string;
    const set = env[key];
    if (fallback === undefined) return set ?? '';
    if (colon) return set ? set : fallback; // `:-`: unset or empty
    return set ?? fallback; // `-`: unset only
  });
}

const compose = parse(read('docker-compose.yml'), { merge: true }) as ComposeFile;
const services = compose.services;
const names = Object.keys(services);

const OURS = ['gateway-1', 'gateway-2', 'order', 'tracking', 'label', 'carrier-sandbox'] as const;
const INFRA = ['kafka', 'kafka-init', 'postgres', 'kurrentdb', 'mongo', 'jaeger'] as const;

const service = (name: string): ComposeService => {
  const s = services[name];
  if (!s) throw new Error(`docker-compose.yml has no service "${name}"`);
  return s;
};
const list = (value: string[] | string | undefined): string[] => (value === undefined ? [] : Array.isArray(value) ? value : value.split(/\s+/).filter(Boolean));
/** The service's environment as the container sees it, interpolated against `hostEnv`. */
function envOf(name: string, hostEnv: Record<string, string | undefined> = {}): Record<string, string> {
  const raw = service(name).environment ?? {};
  const entries: [string, string][] = Array.isArray(raw)
    ? raw.map((line) => {
        const eq = line.indexOf('=');
        return eq < 0 ? [line, ''] : [line.slice(0, eq), line.slice(eq + 1)];
      })
    : Object.entries(raw).map(([k, v]) => [k, v === null ? '' : String(v)]);
  return Object.fromEntries(entries.map(([k, v]) => [k, interpolate(v, hostEnv)]));
}
function dependencies(name: string): Record<string, Dependency> {
  const deps = service(name).depends_on ?? {};
  return Array.isArray(deps) ? Object.fromEntries(deps.map((d) => [d, { condition: 'service_started' as const }])) : deps;
}
/** The service directory its command runs: `node services/<dir>/src/main.ts`. */
function mainOf(name: string): { dir: string; file: string } {
  const command = list(service(name).command);
  const file = command[1] ?? '';
  const match = /^services\/([a-z-]+)\/src\/main\.ts$/.exec(file);
  if (command[0] !== 'node' || !match) throw new Error(`${name}: command ${JSON.stringify(command)} is not "node services/<name>/src/main.ts"`);
  return { dir: match[1] as string, file };
}
const mainSource = (name: string): string => read(mainOf(name).file);
const hostOf = (url: string): { host: string; port: string } => {
  const u = new URL(url.includes('://') ? url : `tcp://${url}`);
  return { host: u.hostname, port: u.port };
};

/** `name:partitions` of the TOPICS array in infra/topics.sh. */
function topicsOfInfraScript(): Map<string, number> {
  const block = /^TOPICS=\(\n([\s\S]*?)^\)/m.exec(read('infra/topics.sh'));
  if (!block) throw new Error('infra/topics.sh: no TOPICS=( ... ) block');
  return topicMap(block[1]!.split('\n').map((l) => l.trim()).filter((l) => l && !l.startsWith('#')));
}
function topicMap(specs: string[]): Map<string, number> {
  const map = new Map<string, number>();
  for (const spec of specs) {
    const m = /^([A-Za-z0-9._-]+):(\d+)$/.exec(spec);
    if (!m) throw new Error(`not a name:partitions topic spec: "${spec}"`);
    expect(map.has(m[1]!)).toBe(false);
    map.set(m[1]!, Number(m[2]));
  }
  return map;
}

interface Published {
  service: string;
  ip: string;
  port: number;
  protocol: string;
}
/** Published host ports (short and long syntax), interpolated with no host variables set. */
function published(name: string): Published[] {
  return (service(name).ports ?? []).flatMap((entry): Published[] => {
    if (typeof entry !== 'string') {
      if (entry.published === undefined) return [];
      return [{ service: name, ip: entry.host_ip ?? '', port: Number(interpolate(String(entry.published), {})), protocol: entry.protocol ?? 'tcp' }];
    }
    const [spec, protocol = 'tcp'] = interpolate(entry, {}).split('/') as [string, string?];
    const parts = spec.split(':');
    if (parts.length === 1) return []; // container port only: Docker picks a free host port
    const port = parts[parts.length - 2] as string;
    const ip = parts.length === 3 ? (parts[0] as string) : '';
    if (port.includes('-')) throw new Error(`${name}: port ranges are not checked here: ${entry}`);
    return [{ service: name, ip, port: Number(port), protocol }];
  });
}

// ------------------------------------------------------------------ the composition roots

const distributedSource = read('packages/config/src/distributed.ts');
/** Every variable the distributed settings require (`required(env, 'NAME')`). */
const requiredByWiring = [...distributedSource.matchAll(/required\(env, '([A-Z_]+)'\)/g)].map((m) => m[1] as string);
const STORES = ['postgres', 'kurrentdb'] as const;

describe('docker-compose.yml: structure', () => {
  test('parses as YAML (with merge keys) and holds the infrastructure and every service of ours', () => {
    expect(compose.name).toBe('parcel');
    expect(names.sort()).toEqual([...INFRA, ...OURS].sort());
    expect(service('kafka').image).toMatch(/^apache\/kafka:4\./);
    expect(service('kafka-init').image).toBe(service('kafka').image);
    expect(service('postgres').image).toMatch(/^postgres:16(\b|-)/);
    expect(service('kurrentdb').image).toMatch(/kurrentdb/);
    expect(service('mongo').image).toMatch(/^mongo:[78](\b|\.)/);
    expect(service('jaeger').image).toMatch(/^jaegertracing\//);
  });

  test('every service has a health check; ours probe their own /readyz on PORT or HEALTH_PORT', () => {
    for (const name of names) {
      const hc = service(name).healthcheck;
      expect({ name, test: list(hc?.test).length > 0, disabled: hc?.disable === true }).toEqual({ name, test: true, disabled: false });
      expect(['CMD', 'CMD-SHELL']).toContain(list(hc?.test)[0]);
    }
    for (const name of OURS) {
      const env = envOf(name);
      const port = mainOf(name).dir === 'gateway' || mainOf(name).dir === 'carrier-sandbox' ? env.PORT : env.HEALTH_PORT;
      expect(port).toMatch(/^[1-9]\d*$/);
      expect({ name, test: list(service(name).healthcheck?.test) }).toEqual({
        name,
        test: ['CMD', 'node', 'infra/compose/healthcheck.ts', `http://127.0.0.1:${port}/readyz`],
      });
    }
  });

  test('our services are built from the one Dockerfile and each runs its own services/<name>/src/main.ts', () => {
    const expected: Record<(typeof OURS)[number], string> = {
      'gateway-1': 'gateway',
      'gateway-2': 'gateway',
      order: 'order',
      tracking: 'tracking',
      label: 'label',
      'carrier-sandbox': 'carrier-sandbox',
    };
    for (const name of OURS) {
      const build = service(name).build;
      expect({ name, build }).toEqual({ name, build: { context: '.', dockerfile: 'Dockerfile' } });
      expect(mainOf(name).dir).toBe(expected[name]);
      expect(existsSync(path.join(ROOT, mainOf(name).file))).toBe(true);
    }
    expect(service('order').deploy?.replicas).toBe(2);
  });

  test.each(STORES)('every service of ours has the environment packages/config needs (PARCEL_EVENT_STORE=%s)', (store) => {
    expect(requiredByWiring.sort()).toEqual(['KURRENTDB_URL', 'PARCEL_KAFKA_BROKERS', 'PARCEL_MONGO_URL', 'PARCEL_PG_URL']);
    const hostEnv = store === 'postgres' ? {} : { PARCEL_EVENT_STORE: store };
    for (const name of OURS) {
      const source = mainSource(name);
      const env = envOf(name, hostEnv);
      if (!source.includes("loadSettings(process.env, '")) {
        // The sandbox reads PORT, HOST and its callback URL itself.
        expect(name).toBe('carrier-sandbox');
        continue;
      }
      // The store is switchable, so both URLs are there; the one chosen is required.
      for (const variable of requiredByWiring) expect({ name, variable, set: Boolean(env[variable]) }).toEqual({ name, variable, set: true });
      expect(service(name).environment).toMatchObject({ PARCEL_EVENT_STORE: '${PARCEL_EVENT_STORE:-postgres}' });
      expect(env.PARCEL_EVENT_STORE).toBe(store);
      // The real loader accepts it (it throws SettingsError otherwise).
      const settings = loadSettings(env, mainOf(name).dir);
      const { distributed } = settings;
      expect(distributed.eventStore).toBe(store);
      expect(settings.host).toBe('0.0.0.0');
      if (source.includes('startHealthServer(distributed.healthPort')) expect(distributed.healthPort).toBeGreaterThan(0);
      if (source.includes('app.listen(settings.port')) expect(settings.port).toBeGreaterThan(0);
      if (source.includes('settings.carriers.lmxUrl')) expect(settings.carriers.lmxUrl).toBeTruthy();
      // Every address names a service of this file on the port it listens on.
      for (const broker of distributed.kafkaBrokers) expect(hostOf(broker)).toEqual({ host: 'kafka', port: '9092' });
      expect(hostOf(distributed.mongoUrl).host).toBe('mongo');
      expect(hostOf(env.PARCEL_PG_URL!)).toEqual({ host: 'postgres', port: '5432' });
      expect(hostOf(env.KURRENTDB_URL!)).toEqual({ host: 'kurrentdb', port: '2113' });
      expect(env.KURRENTDB_URL).toMatch(/^kurrentdb:\/\/.*[?&]tls=false/);
    }
    const lmx = envOf('order').PARCEL_LMX_URL!;
    expect(hostOf(lmx)).toEqual({ host: 'carrier-sandbox', port: envOf('carrier-sandbox').PORT });
    const callback = hostOf(envOf('carrier-sandbox').PARCEL_CARRIER_CALLBACK_URL!);
    expect(mainOf(callback.host).dir).toBe('gateway');
    expect(callback.port).toBe(envOf(callback.host).PORT);
    // The sandbox signs events with the secret the gateway checks (reference data).
    const { carriers } = JSON.parse(read('packages/reference-data/data/carriers.json')) as { carriers: { code: string; eventSecret?: string }[] };
    expect(carriers.find((c) => c.code === 'LMX')?.eventSecret).toBe(envOf('carrier-sandbox').LMX_SECRET);
  });

  test('each service of ours waits for what its composition root connects to', () => {
    for (const name of OURS) {
      const source = mainSource(name);
      const deps = dependencies(name);
      const wants: Record<string, Dependency['condition']> = {};
      if (source.includes('connectBus(')) wants['kafka-init'] = 'service_completed_successfully';
      if (source.includes('connectProjections(')) wants.mongo = 'service_healthy';
      if (source.includes('connectEventStore(')) Object.assign(wants, { postgres: 'service_healthy', kurrentdb: 'service_healthy' });
      if (source.includes('settings.carriers.lmxUrl')) wants['carrier-sandbox'] = 'service_healthy';
      for (const [target, condition] of Object.entries(wants)) expect({ name, target, condition: deps[target]?.condition }).toEqual({ name, target, condition });
    }
    expect(dependencies('kafka-init').kafka?.condition).toBe('service_healthy');
  });

  test('every depends_on target exists, its condition fits the target, and there is no cycle', () => {
    for (const name of names) {
      for (const [target, dep] of Object.entries(dependencies(name))) {
        expect({ name, target, exists: names.includes(target) }).toEqual({ name, target, exists: true });
        expect(['service_started', 'service_healthy', 'service_completed_successfully']).toContain(dep.condition);
        if (dep.condition === 'service_healthy') expect(list(service(target).healthcheck?.test).length).toBeGreaterThan(0);
        if (dep.condition === 'service_completed_successfully') expect({ target, restart: service(target).restart }).toEqual({ target, restart: 'no' });
      }
    }
    const state = new Map<string, 'visiting' | 'done'>();
    const visit = (name: string, trail: string[]): void => {
      if (state.get(name) === 'done') return;
      if (state.get(name) === 'visiting') throw new Error(`depends_on cycle: ${[...trail, name].join(' -> ')}`);
      state.set(name, 'visiting');
      for (const target of Object.keys(dependencies(name))) visit(target, [...trail, name]);
      state.set(name, 'done');
    };
    for (const name of names) visit(name, []);
  });

  test('published host ports do not clash; a replicated service publishes none', () => {
    const all = names.flatMap(published);
    for (const a of all) {
      expect(a.port).toBeGreaterThan(0);
      const clash = all.filter((b) => b !== a && b.port === a.port && b.protocol === a.protocol && (a.ip === '' || b.ip === '' || a.ip === b.ip));
      expect({ port: a.port, service: a.service, clashesWith: clash.map((c) => c.service) }).toEqual({ port: a.port, service: a.service, clashesWith: [] });
    }
    for (const name of names) if ((service(name).deploy?.replicas ?? 1) > 1) expect({ name, published: published(name) }).toEqual({ name, published: [] });
    const byService = Object.fromEntries(all.map((p) => [`${p.service}:${p.port}`, p.ip]));
    expect(byService).toMatchObject({ 'gateway-1:8080': '', 'gateway-2:8081': '', 'carrier-sandbox:8090': '', 'jaeger:16686': '127.0.0.1' });
  });

  test('kafka-init creates every topic of infra/topics.sh with the same partition count; the broker creates none itself', () => {
    const expected = topicsOfInfraScript();
    expect(expected.size).toBeGreaterThan(0);
    const init = service('kafka-init');
    expect(topicMap(list(init.command))).toEqual(expected);
    expect(list(init.entrypoint)).toEqual(['/bin/sh', '/parcel/create-topics.sh']);
    const mount = (init.volumes ?? []).find((v) => typeof v === 'string' && v.split(':')[1] === '/parcel/create-topics.sh') as string | undefined;
    expect(mount?.split(':')[0]).toBe('./infra/compose/create-topics.sh');
    expect(existsSync(path.join(ROOT, 'infra/compose/create-topics.sh'))).toBe(true);
    expect(hostOf(envOf('kafka-init').BOOTSTRAP_SERVER!)).toEqual({ host: 'kafka', port: '9092' });
    const kafka = envOf('kafka');
    expect(kafka.KAFKA_AUTO_CREATE_TOPICS_ENABLE).toBe('false');
    expect(kafka.KAFKA_PROCESS_ROLES).toBe('broker,controller');
    expect(kafka.KAFKA_ADVERTISED_LISTENERS).toContain('PLAINTEXT://kafka:9092');
    expect(kafka.CLUSTER_ID).toMatch(/^[A-Za-z0-9_-]{22}$/);
    expect(kafka.KAFKA_OFFSETS_TOPIC_REPLICATION_FACTOR).toBe('1');
  });

  test('OTLP export goes to Jaeger; OTEL_SERVICE_NAME per service (one name for the two gateways)', () => {
    const nameOf = new Map<string, string>();
    for (const name of OURS) {
      const env = envOf(name);
      expect(hostOf(env.OTEL_EXPORTER_OTLP_ENDPOINT!)).toEqual({ host: 'jaeger', port: '4318' });
      // OTLP over HTTP (port 4318): packages/telemetry uses @opentelemetry/exporter-trace-otlp-http, which sends JSON.
      expect(env.OTEL_EXPORTER_OTLP_PROTOCOL).toBe('http/json');
      expect(env.OTEL_SERVICE_NAME).toMatch(/^parcel-[a-z-]+$/);
      const dir = mainOf(name).dir;
      const seen = nameOf.get(dir);
      if (seen) expect(env.OTEL_SERVICE_NAME).toBe(seen);
      nameOf.set(dir, env.OTEL_SERVICE_NAME!);
      expect(dependencies(name).jaeger?.condition).toBe('service_healthy');
    }
    expect(new Set(nameOf.values()).size).toBe(nameOf.size);
  });

  test('KurrentDB: insecure single node for development, MaxAppendSize above 1 MiB', () => {
    const env = envOf('kurrentdb');
    expect(env.KURRENTDB_INSECURE).toBe('true');
    expect(env.KURRENTDB_CLUSTER_SIZE).toBe('1');
    expect(Number(env.KURRENTDB_MAX_APPEND_SIZE)).toBeGreaterThan(1024 * 1024);
    expect(interpolate(service('kurrentdb').image!, {})).toMatch(/^kurrentplatform\/kurrentdb:(2[5-9]|[3-9]\d)\.\d+/);
  });

  test('the compose interpolation used here resolves like Compose', () => {
    expect(interpolate('${A:-x}', {})).toBe('x');
    expect(interpolate('${A:-x}', { A: '' })).toBe('x');
    expect(interpolate('${A-x}', { A: '' })).toBe('');
    expect(interpolate('${A:-x}', { A: 'y' })).toBe('y');
    expect(interpolate('a$${A}', { A: 'y' })).toBe('a${A}');
    expect(interpolate('${A}/$A', { A: 'y' })).toBe('y/y');
  });
});

// ------------------------------------------------------------------ docker compose config

const composeVersion = spawnSync('docker', ['compose', 'version'], { encoding: 'utf8', timeout: 15_000 });
const hasComposePlugin = composeVersion.status === 0;
const composeConfigTest = hasComposePlugin ? test : test.skip;
describe('docker compose config', () => {
  composeConfigTest(
    hasComposePlugin
      ? 'docker compose -f docker-compose.yml config --quiet accepts the file (both event stores)'
      : 'docker compose -f docker-compose.yml config --quiet [SKIPPED: `docker compose version` failed, the docker client here has no compose plugin]',
    () => {
      for (const store of STORES) {
        const result = spawnSync('docker', ['compose', '-f', 'docker-compose.yml', 'config', '--quiet'], {
          cwd: ROOT,
          encoding: 'utf8',
          timeout: 60_000,
          env: { ...process.env, PARCEL_EVENT_STORE: store },
        });
        expect({ store, status: result.status, stderr: result.stderr }).toEqual({ store, status: 0, stderr: '' });
      }
    },
  );
});

// ------------------------------------------------------------------ Dockerfile and .dockerignore

/** Dockerfile instructions with line continuations joined and comments dropped. */
function instructions(text: string): { op: string; args: string }[] {
  const joined = text.replace(/\\\r?\n/g, ' ');
  return joined
    .split(/\r?\n/)
    .map((l) => l.trim())
    .filter((l) => l && !l.startsWith('#'))
    .map((l) => {
      const [op = '', ...rest] = l.split(/\s+/);
      return { op: op.toUpperCase(), args: rest.join(' ') };
    });
}

/** .dockerignore semantics (moby/patternmatcher): last matching pattern wins; a match on a parent directory counts. */
function dockerignore(text: string): (file: string) => boolean {
  const rules = text
    .split(/\r?\n/)
    .map((l) => l.trim())
    .filter((l) => l && !l.startsWith('#'))
    .map((l) => {
      const negate = l.startsWith('!');
      const pattern = path.posix.normalize((negate ? l.slice(1) : l).trim()).replace(/^\/+/, '').replace(/\/+$/, '');
      let re = '';
      for (let i = 0; i < pattern.length; i++) {
        const c = pattern[i] as string;
        if (c === '*' && pattern[i + 1] === '*') {
          i++;
          if (pattern[i + 1] === '/') {
            i++;
            re += '(?:.*/)?';
          } else re += '.*';
        } else if (c === '*') re += '[^/]*';
        else if (c === '?') re += '[^/]';
        else re += c.replace(/[.+^${}()|[\]\\]/g, '\\$&');
      }
      return { negate, re: new RegExp(`^${re}$`) };
    });
  return (file) => {
    const parts = file.split('/');
    const candidates = parts.map((_, i) => parts.slice(0, i + 1).join('/'));
    let excluded = false;
    for (const rule of rules) if (candidates.some((c) => rule.re.test(c))) excluded = !rule.negate;
    return excluded;
  };
}

function walk(dir: string, out: string[] = []): string[] {
  for (const entry of readdirSync(path.join(ROOT, dir), { withFileTypes: true })) {
    if (entry.name === 'node_modules') continue;
    const rel = `${dir}/${entry.name}`;
    if (entry.isDirectory()) walk(rel, out);
    else out.push(rel);
  }
  return out;
}

describe('Dockerfile', () => {
  const steps = instructions(read('Dockerfile'));
  const args = Object.fromEntries(
    steps.filter((s) => s.op === 'ARG' && s.args.includes('=')).map((s) => [s.args.slice(0, s.args.indexOf('=')), s.args.slice(s.args.indexOf('=') + 1)]),
  );
  const stages = steps.filter((s) => s.op === 'FROM');
  const finalStage = steps.slice(steps.lastIndexOf(stages[stages.length - 1]!));

  test('multi-stage on node:24-bookworm-slim; pnpm install --frozen-lockfile from the lockfile; non-root', () => {
    expect(stages.length).toBeGreaterThanOrEqual(2);
    for (const from of stages) expect(interpolate(from.args.split(/\s+/)[0]!, args)).toBe('node:24-bookworm-slim');
    const runs = steps.filter((s) => s.op === 'RUN').map((s) => s.args);
    expect(runs.some((r) => /\bpnpm install\b.*--frozen-lockfile/.test(r))).toBe(true);
    expect(steps.some((s) => s.op === 'COPY' && s.args.split(/\s+/).includes('pnpm-lock.yaml'))).toBe(true);
    const user = finalStage.filter((s) => s.op === 'USER').pop()?.args;
    expect(user).toBeDefined();
    expect(['root', '0', '0:0']).not.toContain(user);
  });

  test('CMD runs a service entry that exists; every compose command and helper path exists too', () => {
    const cmd = JSON.parse(finalStage.filter((s) => s.op === 'CMD').pop()!.args) as string[];
    expect(cmd[0]).toBe('node');
    expect(cmd[1]).toMatch(/^services\/[a-z-]+\/src\/main\.ts$/);
    expect(existsSync(path.join(ROOT, cmd[1]!))).toBe(true);
    for (const name of OURS) expect(existsSync(path.join(ROOT, mainOf(name).file))).toBe(true);
    expect(statSync(path.join(ROOT, 'infra/compose/healthcheck.ts')).isFile()).toBe(true);
  });

  test('installs the Debian font packages that hold the first-choice fonts of services/label/src/fonts.ts', () => {
    const installed = steps
      .filter((s) => s.op === 'RUN' && /apt-get install/.test(s.args))
      .flatMap((s) => s.args.split(/\s+/))
      .filter((w) => w.startsWith('fonts-'));
    // Debian 12 (bookworm) package contents (`dpkg -L`), the files fonts.ts looks for by name.
    const files: Record<string, string[]> = {
      'fonts-dejavu-core': ['DejaVuSans.ttf', 'DejaVuSans-Bold.ttf'],
      'fonts-tlwg-loma-ttf': ['Loma.ttf', 'Loma-Bold.ttf'],
      'fonts-noto-cjk': ['NotoSansCJK-Regular.ttc', 'NotoSansCJK-Bold.ttc'],
    };
    const available = new Set(installed.flatMap((p) => files[p] ?? []));
    const candidates = /const CANDIDATES = \{([\s\S]*?)\} as const/.exec(read('services/label/src/fonts.ts'))?.[1] ?? '';
    const roles = [...candidates.matchAll(/(\w+): \[([^\]]*)\]/g)];
    expect(roles.map((r) => r[1])).toEqual(['sans', 'sansBold', 'thai', 'thaiBold', 'cjk', 'cjkBold']);
    for (const [, role, names] of roles) {
      const wanted = [...names!.matchAll(/'([^']+)'/g)].map((m) => m[1]!);
      expect({ role, found: wanted.some((f) => available.has(f)) }).toEqual({ role, found: true });
    }
  });

  test('.dockerignore keeps what the image runs and installs from, and drops local state', () => {
    const ignored = dockerignore(read('.dockerignore'));
    const members = ['packages', 'services'].flatMap((d) => readdirSync(path.join(ROOT, d)).map((m) => `${d}/${m}`));
    const needed = [
      'package.json',
      'pnpm-lock.yaml',
      'pnpm-workspace.yaml',
      'test/package.json',
      'bench/package.json',
      'infra/compose/healthcheck.ts',
      ...members.map((m) => `${m}/package.json`),
      ...members.flatMap((m) => (existsSync(path.join(ROOT, m, 'src')) ? walk(`${m}/src`) : [])).filter((f) => !f.endsWith('.spec.ts')),
      ...walk('packages/reference-data/data'),
    ];
    expect(needed.filter(ignored)).toEqual([]);
    for (const local of ['node_modules/x', 'packages/bus/node_modules/x', '.git/HEAD', '.tools/bin/pnpm', '.infra/kafka/x', 'data/x.db', 'test/http.int.spec.ts', 'services/order/src/a.unit.spec.ts']) {
      expect({ local, ignored: ignored(local) }).toEqual({ local, ignored: true });
    }
  });
});
