/** Test support: the LMX sandbox listening for a test file. */
import { createCarrierSandbox } from '../src/sandbox.ts';
import type { CarrierSandbox } from '../src/sandbox.ts';

/**
 * A sandbox with the test secret on a free port, listening before the file's tests and closed
 * after them; `url()` and `sandbox()` are read inside a test.
 */
export function listeningSandbox(): { sandbox: () => CarrierSandbox; url: () => string } {
  let sandbox: CarrierSandbox | undefined;
  let url: string | undefined;
  beforeAll(async () => {
    sandbox = createCarrierSandbox({ secret: 'lmx-sandbox-secret' });
    url = (await sandbox.listen(0)).url;
  });
  afterAll(() => sandbox?.close());
  const started = <T>(value: T | undefined): T => {
    if (value === undefined) throw new Error('the sandbox listens before the tests (beforeAll)');
    return value;
  };
  return { sandbox: () => started(sandbox), url: () => started(url) };
}
