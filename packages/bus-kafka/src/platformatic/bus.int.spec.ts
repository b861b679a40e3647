import { execFile } from 'node:child_process';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { expect, it } from '@jest/globals';

/**
 * The @platformatic/kafka adapter's tests live in bus.platformatic.spec.ts: the library is an
 * ES module only, which this Jest (CommonJS, no --experimental-vm-modules) cannot load, so they
 * run in a Jest of their own whose config (jest.platformatic.cjs) transforms it.
 */
const require = createRequire(__filename);
const packageRoot = dirname(require.resolve('../../package.json'));

it('passes the bus conformance suite and the Kafka specifics on @platformatic/kafka (bus.platformatic.spec.ts)', async () => {
  const jest = require.resolve('jest/bin/jest');
  const { code, output } = await new Promise<{ code: number; output: string }>((resolve) => {
    execFile(
      process.execPath,
      [jest, '--ci', '-c', join(packageRoot, 'jest.platformatic.cjs')],
      { cwd: packageRoot, env: process.env, maxBuffer: 16 * 1024 * 1024 },
      (error, stdout, stderr) => {
        resolve({ code: error ? Number((error as { code?: unknown }).code ?? 1) : 0, output: `${stdout}${stderr}` });
      },
    );
  });
  if (code !== 0) throw new Error(`bus.platformatic.spec.ts failed (exit ${code}):\n${output}`);
  expect(output).toMatch(/Tests:\s+\d+ passed, \d+ total/);
}, 300_000);
