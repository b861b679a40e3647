/** The variants of bench/cpu.ts: this checkout's Kafka adapters, or the kafkajs adapter of a commit. */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const packageRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..');
export const repoRoot = resolve(packageRoot, '../..');

export interface Variant {
  label: string;
  module: string;
  factory: string;
  options: Record<string, unknown>;
}

/** The kafkajs adapter's entry in a commit's src: one folder per client, or kafka.ts before that. */
const kafkajsEntries = [join('kafkajs', 'index.ts'), 'kafka.ts'];

/**
 * The Kafka adapter's src of a commit (packages/bus/src before the adapter had a package), unpacked in the temporary directory (out of reach of lint and
 * tsc), with a node_modules link to this package's, so its imports resolve as here.
 */
function snapshot(rev: string, withoutIdleFix: boolean): string {
  const commit = execFileSync('git', ['-C', repoRoot, 'rev-parse', '--short', rev], { encoding: 'utf8' }).trim();
  const dir = join(tmpdir(), 'parcel-bus-bench', `${commit}${withoutIdleFix ? '-nofix' : ''}`);
  const entry = () => kafkajsEntries.map((path) => join(dir, 'src', path)).find((path) => existsSync(path));
  if (!entry()) {
    mkdirSync(dir, { recursive: true });
    if (!existsSync(join(dir, 'node_modules')))
      symlinkSync(join(packageRoot, 'node_modules'), join(dir, 'node_modules'));
    const own = execFileSync('git', ['-C', repoRoot, 'ls-tree', '--name-only', commit, 'packages/bus-kafka/src'], {
      encoding: 'utf8',
    }).trim();
    const tar = execFileSync('git', ['-C', repoRoot, 'archive', '--format=tar', commit, own || 'packages/bus/src'], {
      maxBuffer: 64 * 1024 * 1024,
    });
    execFileSync('tar', ['-x', '-C', dir, '--strip-components=2'], { input: tar });
  }
  const file = entry();
  if (!file) throw new Error(`${rev}: no kafkajs adapter in packages/bus-kafka/src`);
  if (withoutIdleFix)
    writeFileSync(file, readFileSync(file, 'utf8').replace(/^import '\.\/kafka\/idlePollFix\.ts';\n/m, ''));
  return file;
}

export function variant(definition: string): Variant {
  const [label, rest] = [definition.slice(0, definition.indexOf('=')), definition.slice(definition.indexOf('=') + 1)];
  const at = rest.indexOf('@');
  const spec = at < 0 ? rest : rest.slice(0, at);
  const options = at < 0 ? {} : (JSON.parse(rest.slice(at + 1)) as Record<string, unknown>);
  if (!label) throw new Error(`--variant ${definition}: expected label=spec`);
  if (spec === 'kafkajs')
    return { label, module: join(packageRoot, 'src', 'kafkajs', 'index.ts'), factory: 'createKafkaBus', options };
  if (spec === 'platformatic')
    return {
      label,
      module: join(packageRoot, 'src', 'platformatic', 'index.ts'),
      factory: 'createPlatformaticKafkaBus',
      options,
    };
  const git = /^git:([^:]+)(:nofix)?$/.exec(spec);
  if (git?.[1]) return { label, module: snapshot(git[1], Boolean(git[2])), factory: 'createKafkaBus', options };
  throw new Error(`--variant ${definition}: unknown spec ${spec}`);
}
