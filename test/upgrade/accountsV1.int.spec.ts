/**
 * Accounts read from the accounts file alone, before they were data: a directory and accounts
 * file written by that code (test/fixtures/accountsV1, made by its make.ts) start with today's
 * code, which imports the file on its first start. Every account serves as it did: the same keys
 * sign, the same settings hold (service types, cancel permission, isolation), and the operator
 * API shows them as the file says; no key of the file is left in clear in the data directory.
 */
import { cpSync, mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { adminClient, ADMIN_ENV } from '../accounts/support.ts';
import { ask } from '../fixtures/accountsV1/probes.ts';
import type { Manifest } from '../fixtures/accountsV1/probes.ts';
import { startTestStack, TestClock } from '../support/stack.ts';
import type { TestStack } from '../support/stack.ts';

const FIXTURE_DIR = path.join(import.meta.dirname, '../fixtures/accountsV1');
const read = <T>(name: string): T => JSON.parse(readFileSync(path.join(FIXTURE_DIR, name), 'utf8')) as T;
const manifest = read<Manifest>('manifest.json');
const recorded = read<Record<string, unknown>>('answers.json');
const file = read<{
  accounts: {
    apiName: string;
    apiKey: string;
    clientId: string;
    weightUnit: string;
    serviceTypes: string[];
    canCancel: boolean;
  }[];
}>('accounts.json');

let stack: TestStack;
let dataDir: string;
beforeAll(async () => {
  dataDir = mkdtempSync(path.join(tmpdir(), 'parcel-accounts-v1-'));
  cpSync(path.join(FIXTURE_DIR, 'data'), dataDir, { recursive: true });
  stack = await startTestStack(
    { ...ADMIN_ENV, PARCEL_ACCOUNTS_FILE: path.join(FIXTURE_DIR, 'accounts.json') },
    { dataDir, clock: new TestClock(manifest.clockMs) },
  );
  await stack.caughtUp();
});
afterAll(() => stack.destroy());

test('every account of the file answers as it did before accounts were data', async () => {
  const answers = await ask(stack, manifest);
  for (const name of Object.keys(recorded))
    expect({ name, answer: answers[name] }).toEqual({ name, answer: recorded[name] });
});

test('the operator API shows the imported accounts with the file’s settings', async () => {
  const listed = await adminClient(stack.adminUrl!).get('/accounts');
  expect(
    listed.body.accounts.map((a: Record<string, unknown>) => [
      a.apiName,
      a.clientId,
      a.weightUnit,
      a.serviceTypes,
      a.canCancel,
      a.activeKeys,
    ]),
  ).toEqual(file.accounts.map((a) => [a.apiName, a.clientId, a.weightUnit, a.serviceTypes, a.canCancel, 1]));
});

test('after a restart the accounts still serve, and no key of the file is in the data directory', async () => {
  stack = await stack.restart();
  expect(await ask(stack, manifest)).toEqual(recorded);
  await stack.stop();
  const bytes = Buffer.concat(readdirSync(dataDir).map((name) => readFileSync(path.join(dataDir, name))));
  for (const { apiKey } of file.accounts) {
    expect(bytes.includes(apiKey)).toBe(false);
    expect(bytes.includes(Buffer.from(apiKey, 'utf16le'))).toBe(false);
  }
  stack = await stack.restart();
});
