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

/** This test's own limit; the inner Jest is stopped a little before it, so that what it printed is shown. */
const LIMIT_MS = 300_000;

it(
  'passes the bus conformance suite and the Kafka specifics on @platformatic/kafka (bus.platformatic.spec.ts)',
  async () => {
    const jest = require.resolve('jest/bin/jest');
    const { code, output } = await new Promise<{ code: number | string; output: string }>((resolve) => {
      execFile(
        process.execPath,
        // --forceExit: a client's socket left open after the last test must not keep the inner Jest
        // running until this test's limit, which would hide its results.
        [jest, '--ci', '--forceExit', '-c', join(packageRoot, 'jest.platformatic.cjs')],
        {
          cwd: packageRoot,
          env: process.env,
          maxBuffer: 16 * 1024 * 1024,
          timeout: LIMIT_MS - 20_000,
          killSignal: 'SIGKILL',
        },
        (error, stdout, stderr) => {
          const failure = error as { code?: number | string; killed?: boolean } | null;
          const code = !failure ? 0 : failure.killed ? 'killed after its time' : (failure.code ?? 1);
          resolve({ code, output: `${stdout}${stderr}` });
        },
      );
    });
    if (code !== 0) throw new Error(`bus.platformatic.spec.ts failed (${code}):\n${output}`);
    expect(output).toMatch(/Tests:\s+\d+ passed, \d+ total/);
  },
  LIMIT_MS,
);
