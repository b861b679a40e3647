/**
 * docker-compose.yml, checked without a Docker engine (there is none on the project's machines;
 * the Dockerfile and .dockerignore: dockerfile.int.spec.ts): the compose file's structure against what the composition
 * roots need (packages/config, services/<name>/src/main.ts), the topics against
 * infra/topics.sh, its services against the one description of the stack (packages/stack), and
 * the image's entry paths against the repository. `docker compose config`
 * runs only when the docker client has the compose plugin; otherwise that test is reported as
 * skipped. Deterministic, no network. What this does not prove: see docs/compose.md.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { loadSettings } from '@parcel-logistics/config';
import { COMPACTED_TOPICS, Topics } from '@parcel-logistics/contracts';
import { specOf, STACK } from '@parcel-logistics/stack';
import type { Placement, ServiceName } from '@parcel-logistics/stack';
import {
  INFRA,
  OURS,
  ROOT,
  compose,
  dependencies,
  envOf,
  hostOf,
  interpolate,
  list,
  mainOf,
  mainSource,
  names,
  published,
  read,
  service,
  topicMap,
  topicsOfInfraScript,
  type Dependency,
} from './support/compose.ts';

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
      expect({ name, test: list(hc?.test).length > 0, disabled: hc?.disable === true }).toEqual({
        name,
        test: true,
        disabled: false,
      });
      expect(['CMD', 'CMD-SHELL']).toContain(list(hc?.test)[0]);
    }
    for (const name of OURS) {
      const env = envOf(name);
      const port =
        mainOf(name).dir === 'gateway' || mainOf(name).dir === 'carrier-sandbox' ? env.PORT : env.HEALTH_PORT;
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
      webhook: 'webhook',
      'carrier-sandbox': 'carrier-sandbox',
    };
    for (const name of OURS) {
      const build = service(name).build;
      expect({ name, build }).toEqual({ name, build: { context: '.', dockerfile: 'Dockerfile' } });
      expect(mainOf(name).dir).toBe(expected[name]);
      expect(existsSync(path.join(ROOT, mainOf(name).file))).toBe(true);
    }
  });

  test.each(STORES)(
    'every service of ours has the environment packages/config needs (PARCEL_EVENT_STORE=%s)',
    (store) => {
      expect(requiredByWiring.sort()).toEqual([
        'KURRENTDB_URL',
        'PARCEL_KAFKA_BROKERS',
        'PARCEL_MONGO_URL',
        'PARCEL_PG_URL',
      ]);
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
        for (const variable of requiredByWiring)
          expect({ name, variable, set: Boolean(env[variable]) }).toEqual({ name, variable, set: true });
        expect(service(name).environment).toMatchObject({ PARCEL_EVENT_STORE: '${PARCEL_EVENT_STORE:-postgres}' });
        expect(env.PARCEL_EVENT_STORE).toBe(store);
        // The real loader accepts it (it throws SettingsError otherwise).
        const settings = loadSettings(env, mainOf(name).dir);
        const { distributed } = settings;
        expect(distributed.eventStore).toBe(store);
        expect(settings.host).toBe('0.0.0.0');
        if (source.includes('startHealthServer(distributed.healthPort'))
          expect(distributed.healthPort).toBeGreaterThan(0);
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
      const { carriers } = JSON.parse(read('packages/reference-data/data/carriers.json')) as {
        carriers: { code: string; eventSecret?: string }[];
      };
      expect(carriers.find((c) => c.code === 'LMX')?.eventSecret).toBe(envOf('carrier-sandbox').LMX_SECRET);
    },
  );

  test('each service of ours waits for what its composition root connects to', () => {
    for (const name of OURS) {
      const source = mainSource(name);
      const deps = dependencies(name);
      const wants: Record<string, Dependency['condition']> = {};
      if (source.includes('connectBus(')) wants['kafka-init'] = 'service_completed_successfully';
      if (source.includes('connectProjections(')) wants.mongo = 'service_healthy';
      if (source.includes('connectEventStore('))
        Object.assign(wants, {
          postgres: 'service_healthy',
          kurrentdb: 'service_healthy',
          'master-key': 'service_completed_successfully',
        });
      if (source.includes('connectWebhooks(')) wants.postgres = 'service_healthy';
      if (source.includes('settings.carriers.lmxUrl')) wants['carrier-sandbox'] = 'service_healthy';
      for (const [target, condition] of Object.entries(wants))
        expect({ name, target, condition: deps[target]?.condition }).toEqual({ name, target, condition });
    }
    expect(dependencies('kafka-init').kafka?.condition).toBe('service_healthy');
  });

  test('every depends_on target exists, its condition fits the target, and there is no cycle', () => {
    for (const name of names) {
      for (const [target, dep] of Object.entries(dependencies(name))) {
        expect({ name, target, exists: names.includes(target) }).toEqual({ name, target, exists: true });
        expect(['service_started', 'service_healthy', 'service_completed_successfully']).toContain(dep.condition);
        if (dep.condition === 'service_healthy')
          expect(list(service(target).healthcheck?.test).length).toBeGreaterThan(0);
        if (dep.condition === 'service_completed_successfully')
          expect({ target, restart: service(target).restart }).toEqual({ target, restart: 'no' });
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
      const clash = all.filter(
        (b) =>
          b !== a && b.port === a.port && b.protocol === a.protocol && (a.ip === '' || b.ip === '' || a.ip === b.ip),
      );
      expect({ port: a.port, service: a.service, clashesWith: clash.map((c) => c.service) }).toEqual({
        port: a.port,
        service: a.service,
        clashesWith: [],
      });
    }
    for (const name of names)
      if ((service(name).deploy?.replicas ?? 1) > 1)
        expect({ name, published: published(name) }).toEqual({ name, published: [] });
    const byService = Object.fromEntries(all.map((p) => [`${p.service}:${p.port}`, p.ip]));
    expect(byService).toMatchObject({
      'gateway-1:8080': '',
      'gateway-2:8081': '',
      // The sandbox signs with a published secret: loopback only (docs/compose.md).
      'carrier-sandbox:8090': '127.0.0.1',
      'jaeger:16686': '127.0.0.1',
    });
  });

  test('kafka-init creates every topic of infra/topics.sh with the same partition count; the broker creates none itself', () => {
    const expected = topicsOfInfraScript();
    expect(expected.size).toBeGreaterThan(0);
    // Every topic of the contracts is created, the compacted ones compacted.
    for (const topic of Object.values(Topics)) expect(expected.has(topic)).toBe(true);
    expect([...expected].filter(([, spec]) => spec.compact).map(([name]) => name)).toEqual(COMPACTED_TOPICS);
    const init = service('kafka-init');
    expect(topicMap(list(init.command))).toEqual(expected);
    expect(list(init.entrypoint)).toEqual(['/bin/sh', '/parcel/create-topics.sh']);
    const mount = (init.volumes ?? []).find(
      (v) => typeof v === 'string' && v.split(':')[1] === '/parcel/create-topics.sh',
    ) as string | undefined;
    expect(mount?.split(':')[0]).toBe('./infra/compose/create-topics.sh');
    expect(existsSync(path.join(ROOT, 'infra/compose/create-topics.sh'))).toBe(true);
    expect(hostOf(envOf('kafka-init').BOOTSTRAP_SERVER!)).toEqual({ host: 'kafka', port: '9092' });
    const kafka = envOf('kafka');
    expect(kafka.KAFKA_AUTO_CREATE_TOPICS_ENABLE).toBe('false');
    expect(kafka.KAFKA_PROCESS_ROLES).toBe('broker,controller');
    expect(kafka.KAFKA_ADVERTISED_LISTENERS).toContain('PLAINTEXT://kafka:9092');
    expect(kafka.CLUSTER_ID).toMatch(/^[A-Za-z0-9_-]{22}$/);
    expect(kafka.KAFKA_OFFSETS_TOPIC_REPLICATION_FACTOR).toBe('1');
    // Replies of get-shipping-labels carry up to 100 labels (docs/bulk.md): infra/up.sh's limit too.
    expect(kafka.KAFKA_MESSAGE_MAX_BYTES).toBe(
      /^message\.max\.bytes=(\d+)$/m.exec(readFileSync(path.join(ROOT, 'infra/up.sh'), 'utf8'))![1],
    );
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

// ------------------------------------------------------------------ the stack's description

/** What only compose sets: the infrastructure that runs only there (Jaeger, KurrentDB and the choice of event store). */
const COMPOSE_ONLY = [
  'OTEL_EXPORTER_OTLP_ENDPOINT',
  'OTEL_EXPORTER_OTLP_PROTOCOL',
  'OTEL_RESOURCE_ATTRIBUTES',
  'PARCEL_EVENT_STORE',
  'KURRENTDB_URL',
];
/** Any placement: only the names of the addresses are compared, their values are compose's own (checked above). */
const anywhere: Placement = {
  kafka: 'k',
  pg: 'p',
  mongo: 'm',
  pgSchema: 's',
  mongoDb: 'd',
  pgKeysSchema: 'ks',
  masterKeyFile: '/mk',
  host: 'h',
  port: 1,
  adminPort: 2,
  gatewayUrl: 'g',
  sandboxUrl: 'l',
};
const composeServicesOf = (name: ServiceName) => OURS.filter((s) => mainOf(s).dir === name);

describe('docker-compose.yml: the stack of packages/stack', () => {
  test('the same processes: each service of the description as many times (named services and replicas), running its script', () => {
    const processes = (name: ServiceName) =>
      composeServicesOf(name).reduce((n, s) => n + (service(s).deploy?.replicas ?? 1), 0);
    expect(Object.fromEntries(STACK.map((spec) => [spec.service, processes(spec.service)]))).toEqual(
      Object.fromEntries(STACK.map((spec) => [spec.service, spec.count])),
    );
    for (const name of OURS)
      expect({ name, file: mainOf(name).file }).toEqual({ name, file: specOf(mainOf(name).dir as ServiceName).script });
  });

  test.each(STACK.map((spec) => spec.service))(
    '%s: the settings of the description with the same values, each of its addresses, nothing else but compose-only infrastructure',
    (name) => {
      const spec = specOf(name);
      const addresses = Object.keys(spec.addresses(anywhere));
      const known = new Set([...Object.keys(spec.settings), ...addresses, ...COMPOSE_ONLY]);
      for (const composed of composeServicesOf(name)) {
        const env = envOf(composed);
        const settings = Object.fromEntries(Object.keys(spec.settings).map((k) => [k, env[k]]));
        expect({ service: composed, settings }).toEqual({ service: composed, settings: spec.settings });
        expect({ service: composed, missing: addresses.filter((k) => !env[k]) }).toEqual({
          service: composed,
          missing: [],
        });
        expect({ service: composed, unknown: Object.keys(env).filter((k) => !known.has(k)) }).toEqual({
          service: composed,
          unknown: [],
        });
      }
    },
  );
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
