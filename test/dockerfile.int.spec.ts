/** The Dockerfile and .dockerignore, checked without a Docker engine (see test/compose.int.spec.ts and docs/compose.md). */
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { OURS, ROOT, interpolate, mainOf, read } from './support/compose.ts';

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
      const pattern = path.posix
        .normalize((negate ? l.slice(1) : l).trim())
        .replace(/^\/+/, '')
        .replace(/\/+$/, '');
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
    steps
      .filter((s) => s.op === 'ARG' && s.args.includes('='))
      .map((s) => [s.args.slice(0, s.args.indexOf('=')), s.args.slice(s.args.indexOf('=') + 1)]),
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
    const candidates =
      /const CANDIDATES = \{([\s\S]*?)\} as const/.exec(read('services/label/src/fonts.ts'))?.[1] ?? '';
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
      ...members
        .flatMap((m) => (existsSync(path.join(ROOT, m, 'src')) ? walk(`${m}/src`) : []))
        .filter((f) => !f.endsWith('.spec.ts')),
      ...walk('packages/reference-data/data'),
    ];
    expect(needed.filter(ignored)).toEqual([]);
    for (const local of [
      'node_modules/x',
      'packages/bus/node_modules/x',
      '.git/HEAD',
      '.tools/bin/pnpm',
      '.infra/kafka/x',
      'data/x.db',
      'test/http.int.spec.ts',
      'services/order/src/a.unit.spec.ts',
    ]) {
      expect({ local, ignored: ignored(local) }).toEqual({ local, ignored: true });
    }
  });
});
