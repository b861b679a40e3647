/**
 * The compose stack under podman, with podman-compose 1.0.3 (Debian bookworm's), which reads
 * neither `!override` nor `profiles` and does not wait for `depends_on` conditions; and podman
 * 4.3 without systemd, which never runs a container's health check by itself. So:
 *
 * 1. `resolve` merges docker-compose.yml and the overrides as Compose does for what they use
 *    (mappings merge key by key, any other value replaces, `!override` replaces a mapping,
 *    `!reset` removes), leaves out the services of profiles not asked for (COMPOSE_PROFILES),
 *    makes relative paths absolute, and writes one file for podman-compose.
 * 2. `up` has podman-compose create every container (`up --no-start`), then starts each
 *    service once its `depends_on` conditions hold: started, healthy (its compose health check
 *    run with `podman exec`, every 2 s, until it passes) or completed successfully (exit 0).
 * 3. `down` is `podman-compose down -v` plus the project's network (and the written file and log).
 *
 *   node infra/containers/compose.ts up   [-p project] [-f extra.yml]...   (after build.sh)
 *   node infra/containers/compose.ts down [-p project] [-f extra.yml]...
 *
 * The files: docker-compose.yml, infra/containers/compose.local.yml, then each -f. Host ports come
 * from the PARCEL_*_PORT variables of docker-compose.yml. See docs/compose.md.
 */
import { execFile, spawn } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { parseDocument, stringify, type CollectionTag, type ScalarTag, type YAMLMap } from 'yaml';

const run = promisify(execFile);
export const ROOT = path.resolve(import.meta.dirname, '../..');
export const BASE_FILES = ['docker-compose.yml', 'infra/containers/compose.local.yml'];
const STATE = path.join(process.env.PARCEL_INFRA_STATE ?? path.join(ROOT, '.infra'), 'containers');
/** runc and lower default ulimits: see containers.conf. */
export const PODMAN_ENV: NodeJS.ProcessEnv = {
  ...process.env,
  CONTAINERS_CONF: process.env.CONTAINERS_CONF ?? path.join(ROOT, 'infra/containers/containers.conf'),
};

type Yaml = unknown;
interface Service {
  profiles?: string[];
  depends_on?: Record<string, { condition?: string }> | string[];
  healthcheck?: { test?: string[] | string; interval?: string };
  deploy?: { replicas?: number };
  build?: { context?: string } | string;
  volumes?: (string | { type?: string; source?: string })[];
  [key: string]: Yaml;
}
export interface Resolved {
  name?: string;
  services: Record<string, Service>;
  [key: string]: Yaml;
}

// ------------------------------------------------------------------ resolving the files

const OVERRIDE = Symbol('override');
const RESET = Symbol('reset');
interface Marked {
  [OVERRIDE]?: Yaml;
  [RESET]?: true;
}
const overrideTags: (ScalarTag | CollectionTag)[] = [
  {
    tag: '!override',
    collection: 'map',
    resolve: (value) => ({ [OVERRIDE]: (value as YAMLMap).toJSON() }) as Marked,
  } as CollectionTag,
  {
    tag: '!override',
    collection: 'seq',
    resolve: (value) => ({ [OVERRIDE]: (value as { toJSON(): unknown }).toJSON() }) as Marked,
  } as CollectionTag,
  { tag: '!reset', resolve: () => ({ [RESET]: true }) as Marked } as ScalarTag,
];

const isMap = (v: Yaml): v is Record<string, Yaml> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Compose's merge of an override into a base, for what the project's overrides use. */
export function merge(base: Yaml, over: Yaml): Yaml {
  if (isMap(over) && OVERRIDE in over) return (over as Marked)[OVERRIDE];
  if (!isMap(base) || !isMap(over)) return over;
  const out: Record<string, Yaml> = { ...base };
  for (const [key, value] of Object.entries(over)) {
    if (isMap(value) && RESET in value) delete out[key];
    else out[key] = key in out ? merge(out[key], value) : merge(undefined, value);
  }
  return out;
}

function load(file: string): Yaml {
  const doc = parseDocument(readFileSync(path.resolve(ROOT, file), 'utf8'), {
    merge: true,
    customTags: overrideTags,
  });
  if (doc.errors.length > 0) throw new Error(`${file}: ${doc.errors.map((e) => e.message).join('; ')}`);
  return doc.toJS({ maxAliasCount: -1 });
}

/** The files merged; services of profiles not in `profiles` left out; paths absolute. */
export function resolve(files: string[], profiles: string[] = []): Resolved {
  const merged = files.map(load).reduce((a, b) => merge(a, b)) as Resolved;
  const services: Record<string, Service> = {};
  for (const [name, s] of Object.entries(merged.services)) {
    if (s.profiles && !s.profiles.some((p) => profiles.includes(p))) continue;
    const { profiles: _dropped, ...rest } = s;
    services[name] = rest;
  }
  const absolute = (p: string) => (p.startsWith('.') ? path.resolve(ROOT, p) : p);
  for (const [name, s] of Object.entries(services)) {
    for (const target of Object.keys(dependencies(s)))
      if (!services[target]) throw new Error(`${name} depends on ${target}, which is not started`);
    if (isMap(s.build)) s.build = { ...s.build, context: absolute(s.build.context ?? '.') };
    s.volumes = s.volumes?.map((v) => {
      if (typeof v !== 'string') return v;
      const [source = '', ...rest] = v.split(':');
      return [absolute(source), ...rest].join(':');
    });
    if (s.volumes === undefined) delete s.volumes;
  }
  return { ...merged, services };
}

const shellQuote = (word: string) => (/^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`);

/**
 * podman-compose 1.0.3 takes the first word off a health check's test list in place, so the
 * second replica of a service gets a test without CMD and is refused; and it quotes a CMD list
 * wrongly. As one shell string (what CMD-SHELL means) the test reaches podman intact.
 */
function forPodmanCompose(compose: Resolved): Resolved {
  const services = Object.fromEntries(
    Object.entries(compose.services).map(([name, s]) => {
      const test = s.healthcheck?.test;
      if (!Array.isArray(test)) return [name, s];
      const [kind, ...rest] = test;
      const line = kind === 'CMD' ? rest.map(shellQuote).join(' ') : rest.join(' ');
      return [name, { ...s, healthcheck: { ...s.healthcheck, test: line } }];
    }),
  );
  return { ...compose, services };
}

export function dependencies(s: Service): Record<string, string> {
  const deps = s.depends_on ?? {};
  if (Array.isArray(deps)) return Object.fromEntries(deps.map((d) => [d, 'service_started']));
  return Object.fromEntries(Object.entries(deps).map(([k, v]) => [k, v.condition ?? 'service_started']));
}

// ------------------------------------------------------------------ podman

export async function podman(args: string[], timeoutMs = 120_000): Promise<string> {
  const { stdout } = await run('podman', args, { env: PODMAN_ENV, timeout: timeoutMs, maxBuffer: 64 * 1024 * 1024 });
  return stdout;
}

/** podman-compose 1.0.3's container names: <project>_<service>_<n>. */
export const containersOf = (project: string, compose: Resolved, service: string): string[] =>
  Array.from({ length: compose.services[service]?.deploy?.replicas ?? 1 }, (_, i) => `${project}_${service}_${i + 1}`);

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Runs the service's compose health check in the container: true when it exits 0. */
export async function healthy(container: string, s: Service): Promise<boolean> {
  const test = s.healthcheck?.test;
  const argv = typeof test === 'string' ? ['sh', '-c', test] : (test ?? []);
  const [kind, ...rest] = argv;
  const command = kind === 'CMD' ? rest : kind === 'CMD-SHELL' ? ['sh', '-c', rest.join(' ')] : argv;
  if (command.length === 0) return true;
  try {
    await podman(['exec', container, ...command], 30_000);
    return true;
  } catch {
    return false;
  }
}

async function state(container: string): Promise<{ status: string; exitCode: number }> {
  const out = await podman(['inspect', '--format', '{{.State.Status}} {{.State.ExitCode}}', container]);
  const [status = '', code = '0'] = out.trim().split(' ');
  return { status, exitCode: Number(code) };
}

function compose(project: string, file: string, args: string[], env: NodeJS.ProcessEnv): Promise<void> {
  return new Promise((resolveRun, reject) => {
    const child = spawn('podman-compose', ['-p', project, '-f', file, ...args], {
      cwd: ROOT,
      env: { ...PODMAN_ENV, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (d: Buffer) => (output += d.toString()));
    child.stderr.on('data', (d: Buffer) => (output += d.toString()));
    child.on('error', reject);
    child.on('close', (code) => {
      const log = path.join(STATE, `${project}.podman-compose.log`);
      writeFileSync(log, output, { flag: 'a' });
      if (code === 0) resolveRun();
      else reject(new Error(`podman-compose ${args.join(' ')} exited with ${code} (log: ${log})`));
    });
  });
}

export interface StackOptions {
  project: string;
  /** Overrides after the base files, relative to the repository or absolute. */
  extraFiles?: string[];
  /** Variables for compose's interpolation (host ports, ...). */
  env?: NodeJS.ProcessEnv;
  /** Upper bound for each condition, ms. */
  timeoutMs?: number;
  log?: (line: string) => void;
}

function fileOf(options: StackOptions): { file: string; resolved: Resolved } {
  const profiles = (options.env?.COMPOSE_PROFILES ?? process.env.COMPOSE_PROFILES ?? '').split(',').filter(Boolean);
  const resolved = resolve([...BASE_FILES, ...(options.extraFiles ?? [])], profiles);
  mkdirSync(STATE, { recursive: true });
  const file = path.join(STATE, `${options.project}.compose.yml`);
  writeFileSync(
    file,
    `# Written by infra/containers/compose.ts from ${BASE_FILES.join(', ')}.\n` +
      stringify(forPodmanCompose(resolved), { aliasDuplicateObjects: false, version: '1.1' }),
  );
  return { file, resolved };
}

/** Creates the stack's containers and starts them in the order of their conditions. */
export async function up(options: StackOptions): Promise<Resolved> {
  const { project, env = {}, timeoutMs = 300_000, log = () => {} } = options;
  const { file, resolved } = fileOf(options);
  await compose(project, file, ['up', '--no-build', '--no-start'], env);
  const started = new Map<string, Promise<void>>();
  const conditions = new Map<string, Promise<void>>();

  const until = async (what: string, check: () => Promise<boolean>) => {
    const deadline = Date.now() + timeoutMs;
    while (!(await check())) {
      if (Date.now() > deadline) throw new Error(`${project}: ${what} not met after ${timeoutMs / 1000} s`);
      await sleep(2000);
    }
  };
  const condition = (service: string, kind: string): Promise<void> => {
    const key = `${service} ${kind}`;
    let p = conditions.get(key);
    if (!p) {
      const s = resolved.services[service]!;
      p = start(service).then(async () => {
        for (const c of containersOf(project, resolved, service)) {
          if (kind === 'service_healthy') await until(`${c} healthy`, () => healthy(c, s));
          if (kind === 'service_completed_successfully')
            await until(`${c} exited 0`, async () => {
              const st = await state(c);
              if (st.status === 'exited' && st.exitCode !== 0) throw new Error(`${c} exited with ${st.exitCode}`);
              return st.status === 'exited';
            });
        }
        if (kind !== 'service_started') log(`${service}: ${kind.replace('service_', '')}`);
      });
      conditions.set(key, p);
    }
    return p;
  };
  const start = (service: string): Promise<void> => {
    let p = started.get(service);
    if (!p) {
      p = (async () => {
        const s = resolved.services[service]!;
        await Promise.all(Object.entries(dependencies(s)).map(([dep, kind]) => condition(dep, kind)));
        await podman(['start', ...containersOf(project, resolved, service)]);
        log(`${service}: started`);
      })();
      started.set(service, p);
    }
    return p;
  };
  // Every service, and every health check once: `up` returns with the whole stack healthy.
  await Promise.all(
    Object.entries(resolved.services).map(([name, s]) =>
      s.healthcheck?.test && s.restart !== 'no' ? condition(name, 'service_healthy') : start(name),
    ),
  );
  return resolved;
}

/** Removes the stack's containers, volumes and network. */
export async function down(options: StackOptions): Promise<void> {
  const { file } = fileOf(options);
  await compose(options.project, file, ['down', '-v', '-t', '5'], options.env ?? {});
  await podman(['network', 'rm', '-f', `${options.project}_default`]).catch(() => '');
  rmSync(file, { force: true });
  rmSync(path.join(STATE, `${options.project}.podman-compose.log`), { force: true });
}

/** What is left of a project: containers and volumes with its label, and its network. */
export async function leftovers(project: string): Promise<string[]> {
  const label = `label=io.podman.compose.project=${project}`;
  const containers = (await podman(['ps', '-a', '--filter', label, '--format', '{{.Names}}'])).split('\n');
  const volumes = (await podman(['volume', 'ls', '--filter', label, '--format', '{{.Name}}'])).split('\n');
  const networks = (await podman(['network', 'ls', '--format', '{{.Name}}']))
    .split('\n')
    .filter((n) => n === `${project}_default`);
  return [...containers, ...volumes, ...networks].filter(Boolean);
}

// ------------------------------------------------------------------ command line

async function main(argv: string[]): Promise<void> {
  const [command, ...rest] = argv;
  const options: StackOptions = { project: 'parcel', extraFiles: [], log: (l) => console.error(`[compose] ${l}`) };
  for (let i = 0; i < rest.length; i += 2) {
    if (rest[i] === '-p') options.project = rest[i + 1]!;
    else if (rest[i] === '-f') options.extraFiles!.push(rest[i + 1]!);
    else throw new Error(`unknown argument ${rest[i]}`);
  }
  if (command === 'up') await up(options);
  else if (command === 'down') await down(options);
  else if (command === 'config') console.log(stringify(resolve([...BASE_FILES, ...options.extraFiles!])));
  else {
    console.error('usage: node infra/containers/compose.ts up|down|config [-p project] [-f file]...');
    process.exitCode = 2;
  }
}

if (import.meta.filename === process.argv[1])
  main(process.argv.slice(2)).catch((error: unknown) => {
    console.error(error);
    process.exitCode = 1;
  });
