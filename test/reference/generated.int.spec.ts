/** The generated reference under docs/ is what the code generates now (`npm run reference` writes it). */
import { spawnSync } from 'node:child_process';
import path from 'node:path';

test('docs/ holds the reference as the code generates it (npm run reference --check)', () => {
  const root = path.resolve(__dirname, '../..');
  const run = spawnSync(process.execPath, ['scripts/reference.ts', '--check'], { cwd: root, encoding: 'utf8' });
  expect(run.stderr).toBe('');
  expect(run.status).toBe(0);
});
