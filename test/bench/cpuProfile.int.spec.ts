/**
 * bench/cpuProfile.ts, judged on a real profile of V8's (`node --cpu-prof`): a script whose own code
 * works before and after a window, and a package of node_modules that hashes (native work of Node's
 * crypto) inside it. Inside the window the package owns the samples, Node's native work included;
 * over the whole run the script's own code has its share too.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { profileShares } from '../../bench/cpuProfile.ts';

const dir = mkdtempSync(path.join(tmpdir(), 'cpu-profile-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const spin = `(ms, work) => { const end = performance.now() + ms; while (performance.now() < end) work(); }`;

function profiled(): { file: string; window: { fromUs: number; toUs: number } } {
  mkdirSync(path.join(dir, 'node_modules/hasher'), { recursive: true });
  writeFileSync(
    path.join(dir, 'node_modules/hasher/package.json'),
    '{"name":"hasher","type":"module","main":"index.js"}',
  );
  writeFileSync(
    path.join(dir, 'node_modules/hasher/index.js'),
    `import { createHash } from 'node:crypto';
     const spin = ${spin};
     export const hash = (ms) => spin(ms, () => createHash('sha256').update('x'.repeat(4096)).digest());`,
  );
  writeFileSync(
    path.join(dir, 'main.mjs'),
    `import { hash } from 'hasher';
     const spin = ${spin};
     const own = (ms) => { let x = 0; spin(ms, () => { for (let i = 0; i < 1000; i++) x += Math.sqrt(i + x); }); return x; };
     const us = () => String(process.hrtime.bigint() / 1000n);
     own(400);
     const fromUs = us();
     hash(400);
     const toUs = us();
     own(400);
     console.log(JSON.stringify({ fromUs, toUs }));`,
  );
  const out = execFileSync(
    process.execPath,
    ['--cpu-prof', '--cpu-prof-interval=250', `--cpu-prof-dir=${dir}/profile`, 'main.mjs'],
    {
      cwd: dir,
      encoding: 'utf8',
    },
  );
  const { fromUs, toUs } = JSON.parse(out) as { fromUs: string; toUs: string };
  const [file] = readdirSync(path.join(dir, 'profile'));
  return { file: path.join(dir, 'profile', file!), window: { fromUs: Number(fromUs), toUs: Number(toUs) } };
}

test('within the window the npm package owns the samples, the native hashing it asked for included; the script owns its own time outside', () => {
  const { file, window } = profiled();
  const pct = (shares: ReturnType<typeof profileShares>, name: string) =>
    shares.owners.find((o) => o.name === name)?.pct ?? 0;
  const script = `file://${path.join(dir, 'main.mjs')}`;

  const inside = profileShares(file, window);
  expect(inside.samples).toBeGreaterThan(100);
  expect(pct(inside, 'hasher')).toBeGreaterThan(80);
  expect(pct(inside, script)).toBeLessThan(10);
  expect(inside.owners.map((o) => o.name)).not.toContain('(Node, no caller of ours)');

  const whole = profileShares(file);
  expect(whole.samples).toBeGreaterThan(inside.samples * 2);
  expect(pct(whole, script)).toBeGreaterThan(40);
  expect(pct(whole, 'hasher')).toBeGreaterThan(20);
});
