/** The compose model of test/compose.int.spec.ts and test/dockerfile.int.spec.ts: docker-compose.yml parsed, and what its services run. */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parse } from 'yaml';

export const ROOT = path.resolve(__dirname, '../..');
export const read = (file: string): string => readFileSync(path.join(ROOT, file), 'utf8');

// ------------------------------------------------------------------ the compose model

export interface Healthcheck {
  test?: string | string[];
  disable?: boolean;
  interval?: string;
  timeout?: string;
  retries?: number;
}
export interface Dependency {
  condition?: 'service_started' | 'service_healthy' | 'service_completed_successfully';
}
export interface ComposeService {
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
export interface ComposeFile {
  name?: string;
  services: Record<string, ComposeService>;
  volumes?: Record<string, unknown>;
}

/** Compose's interpolation (`${VAR}`, `${VAR:-default}`, `${VAR-default}`, `$$`) against `env`. */
export function interpolate(value: string, env: Record<string, string | undefined>): string {
  return value.replace(
    /\$\$|\$\{([A-Za-z_][A-Za-z0-9_]*)(?:(:?)-([^}]*))?\}|\$([A-Za-z_][A-Za-z0-9_]*)/g,
    (match, name?: string, colon?: string, fallback?: string, bare?: string) => {
      if (match === '$$') return '$';
      const key = (name ?? bare) as string;
      const set = env[key];
      if (fallback === undefined) return set ?? '';
      if (colon) return set ? set : fallback; // `:-`: unset or empty
      return set ?? fallback; // `-`: unset only
    },
  );
}

export const compose = parse(read('docker-compose.yml'), { merge: true }) as ComposeFile;
const services = compose.services;
export const names = Object.keys(services);

export const OURS = ['gateway-1', 'gateway-2', 'order', 'tracking', 'label', 'webhook', 'carrier-sandbox'] as const;
/** The infrastructure, and the one-shots that prepare it (topics, the master key). */
export const INFRA = ['kafka', 'kafka-init', 'master-key', 'postgres', 'kurrentdb', 'mongo', 'jaeger'] as const;

export const service = (name: string): ComposeService => {
  const s = services[name];
  if (!s) throw new Error(`docker-compose.yml has no service "${name}"`);
  return s;
};
export const list = (value: string[] | string | undefined): string[] =>
  value === undefined ? [] : Array.isArray(value) ? value : value.split(/\s+/).filter(Boolean);
/** The service's environment as the container sees it, interpolated against `hostEnv`. */
export function envOf(name: string, hostEnv: Record<string, string | undefined> = {}): Record<string, string> {
  const raw = service(name).environment ?? {};
  const entries: [string, string][] = Array.isArray(raw)
    ? raw.map((line) => {
        const eq = line.indexOf('=');
        return eq < 0 ? [line, ''] : [line.slice(0, eq), line.slice(eq + 1)];
      })
    : Object.entries(raw).map(([k, v]) => [k, v === null ? '' : String(v)]);
  return Object.fromEntries(entries.map(([k, v]) => [k, interpolate(v, hostEnv)]));
}
export function dependencies(name: string): Record<string, Dependency> {
  const deps = service(name).depends_on ?? {};
  return Array.isArray(deps)
    ? Object.fromEntries(deps.map((d) => [d, { condition: 'service_started' as const }]))
    : deps;
}
/** The service directory its command runs: `node services/<dir>/src/main.ts`. */
export function mainOf(name: string): { dir: string; file: string } {
  const command = list(service(name).command);
  const file = command[1] ?? '';
  const match = /^services\/([a-z-]+)\/src\/main\.ts$/.exec(file);
  if (command[0] !== 'node' || !match)
    throw new Error(`${name}: command ${JSON.stringify(command)} is not "node services/<name>/src/main.ts"`);
  return { dir: match[1] as string, file };
}
export const mainSource = (name: string): string => read(mainOf(name).file);
export const hostOf = (url: string): { host: string; port: string } => {
  const u = new URL(url.includes('://') ? url : `tcp://${url}`);
  return { host: u.hostname, port: u.port };
};

/** A topic as infra/topics.sh lists it: `name:partitions`, or `name:partitions:compact`. */
export interface TopicSpec {
  partitions: number;
  compact: boolean;
}

/** The TOPICS array of infra/topics.sh. */
export function topicsOfInfraScript(): Map<string, TopicSpec> {
  const block = /^TOPICS=\(\n([\s\S]*?)^\)/m.exec(read('infra/topics.sh'));
  if (!block) throw new Error('infra/topics.sh: no TOPICS=( ... ) block');
  return topicMap(
    block[1]!
      .split('\n')
      .map((l) => l.trim())
      .filter((l) => l && !l.startsWith('#')),
  );
}
export function topicMap(specs: string[]): Map<string, TopicSpec> {
  const map = new Map<string, TopicSpec>();
  for (const spec of specs) {
    const m = /^([A-Za-z0-9._-]+):(\d+)(:compact)?$/.exec(spec);
    if (!m) throw new Error(`not a name:partitions[:compact] topic spec: "${spec}"`);
    expect(map.has(m[1]!)).toBe(false);
    map.set(m[1]!, { partitions: Number(m[2]), compact: m[3] !== undefined });
  }
  return map;
}

export interface Published {
  service: string;
  ip: string;
  port: number;
  protocol: string;
}
/** Published host ports (short and long syntax), interpolated with no host variables set. */
export function published(name: string): Published[] {
  return (service(name).ports ?? []).flatMap((entry): Published[] => {
    if (typeof entry !== 'string') {
      if (entry.published === undefined) return [];
      return [
        {
          service: name,
          ip: entry.host_ip ?? '',
          port: Number(interpolate(String(entry.published), {})),
          protocol: entry.protocol ?? 'tcp',
        },
      ];
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
