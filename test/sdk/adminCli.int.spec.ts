/**
 * `parcelctl admin …` run as an operator runs it (a child process, the operator API's address and
 * token from the environment or the options) against the operator API of the embedded stack:
 * accounts made, shown, changed, disabled and enabled; keys issued, listed and revoked; the audit
 * log paged. JSON on stdout, problem documents on stderr, exit codes 0, 1 (refused), 2 (usage) and
 * 3 (wrong token, no answer).
 */
import { spawn } from 'node:child_process';
import { ADMIN_ENV, ADMIN_TOKEN } from '../accounts/support.ts';
import { childPath, ROOT } from '../support/npmStart.ts';
import { startTestStack } from '../support/stack.ts';
import type { TestStack } from '../support/stack.ts';

const CLI = 'packages/client/src/cli.ts';
// Every run is a Node process of its own, a few hundred milliseconds each.
jest.setTimeout(60_000);

let stack: TestStack;
beforeAll(async () => {
  stack = await startTestStack(ADMIN_ENV);
});
afterAll(() => stack.destroy());

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
  json(): any; // eslint-disable-line @typescript-eslint/no-explicit-any
  /** The one JSON line a failure writes to stderr. */
  error(): any; // eslint-disable-line @typescript-eslint/no-explicit-any
}

/** `parcelctl <args>` to its end, with the operator API's address and the service's own token setting in the environment. */
function parcelctl(args: string[], env: Record<string, string | undefined> = {}): Promise<Run> {
  const childEnv: NodeJS.ProcessEnv = {
    ...process.env,
    PATH: childPath(),
    PARCEL_ADMIN_URL: stack.adminUrl,
    // As the service reads it: `name:token`.
    PARCEL_ADMIN_TOKEN: ADMIN_ENV.PARCEL_ADMIN_TOKEN,
    ...env,
  };
  for (const [name, value] of Object.entries(childEnv)) if (value === undefined) delete childEnv[name];
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI, ...args], { cwd: ROOT, env: childEnv });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    child.on('error', reject);
    child.on('close', (code) =>
      resolve({
        code,
        stdout,
        stderr,
        json: () => JSON.parse(stdout),
        error: () => {
          expect(stderr.trimEnd().split('\n')).toHaveLength(1);
          return JSON.parse(stderr).error;
        },
      }),
    );
    child.stdin.end();
  });
}

test('accounts: create, list, show, update, disable, enable, as the operator API answers them', async () => {
  const created = await parcelctl([
    'admin',
    'accounts',
    'create',
    'cli-acme',
    '--service-types',
    'LMD',
    '--can-cancel',
    'true',
    '--rate-limit',
    '25',
  ]);
  expect(created.code).toBe(0);
  expect(created.json().account).toMatchObject({
    apiName: 'cli-acme',
    clientId: 'cli-acme',
    weightUnit: 'kg',
    serviceTypes: ['LMD'],
    canCancel: true,
    rateLimitPerSecond: 25,
    activeKeys: 1,
  });
  expect(created.json().key.secret).toMatch(/^plk_/);

  const listed = await parcelctl(['admin', 'accounts', 'list']);
  expect(listed.code).toBe(0);
  expect(listed.json().map((a: { apiName: string }) => a.apiName)).toContain('cli-acme');
  const shown = await parcelctl(['admin', 'accounts', 'show', 'cli-acme']);
  expect(shown.json()).toEqual(created.json().account);

  const updated = await parcelctl([
    'admin',
    'accounts',
    'update',
    'cli-acme',
    '--rate-limit',
    'default',
    '--weight-unit',
    'g',
    '--batch-create',
    'on',
  ]);
  expect(updated.code).toBe(0);
  expect(updated.json()).toMatchObject({ weightUnit: 'g', batchCreate: true });
  expect(updated.json().rateLimitPerSecond).toBeUndefined();

  const disabled = await parcelctl(['admin', 'accounts', 'disable', 'cli-acme']);
  expect([disabled.code, disabled.json().disabled]).toEqual([0, true]);
  const enabled = await parcelctl(['admin', 'accounts', 'enable', 'cli-acme']);
  expect([enabled.code, enabled.json().disabled]).toEqual([0, false]);
});

test('keys: issue, list, revoke; the audit log pages through it all', async () => {
  await parcelctl(['admin', 'accounts', 'create', 'cli-keys']);
  const issued = await parcelctl(['admin', 'keys', 'issue', 'cli-keys']);
  expect(issued.code).toBe(0);
  const { keyId, secret } = issued.json();
  const listed = await parcelctl(['admin', 'keys', 'list', 'cli-keys']);
  expect(listed.json().map((k: { state: string }) => k.state)).toEqual(['active', 'active']);
  expect(listed.stdout).not.toContain(secret);

  const tooMany = await parcelctl(['admin', 'keys', 'issue', 'cli-keys']);
  expect(tooMany.code).toBe(1);
  expect(tooMany.error()).toMatchObject({
    kind: 'problem',
    status: 409,
    problem: { type: 'urn:parcel-logistics:problem:tooManyKeys' },
  });

  const revoked = await parcelctl(['admin', 'keys', 'revoke', 'cli-keys', keyId]);
  expect(revoked.code).toBe(0);
  expect(revoked.json()).toEqual({ apiName: 'cli-keys', keyId, state: 'revoked' });
  const after = await parcelctl(['admin', 'keys', 'list', 'cli-keys']);
  expect(after.json().map((k: { keyId: string; state: string }) => [k.keyId === keyId, k.state])).toEqual([
    [false, 'active'],
    [true, 'revoked'],
  ]);

  const page = await parcelctl(['admin', 'audit', '--limit', '2']);
  expect(page.code).toBe(0);
  expect(page.json().entries.map((e: { action: string; apiName: string }) => `${e.action} ${e.apiName}`)).toEqual([
    'key.revoked cli-keys',
    'key.issued cli-keys',
  ]);
  const older = await parcelctl(['admin', 'audit', '--limit', '1', '--before', String(page.json().next)]);
  expect(older.json().entries.map((e: { action: string }) => e.action)).toEqual(['account.created']);
});

test('the options win over the environment; a bare token works as well as name:token', async () => {
  const r = await parcelctl(
    ['admin', 'accounts', 'show', 'demo', '--admin-url', stack.adminUrl!, '--admin-token', ADMIN_TOKEN],
    {
      PARCEL_ADMIN_URL: 'http://127.0.0.1:9',
      PARCEL_ADMIN_TOKEN: undefined,
    },
  );
  expect([r.code, r.json().apiName]).toEqual([0, 'demo']);
  const bare = await parcelctl(['admin', 'accounts', 'show', 'demo'], { PARCEL_ADMIN_TOKEN: ADMIN_TOKEN });
  expect(bare.code).toBe(0);
});

test('refusals exit 1 with the problem document; a wrong token or no answer exits 3; usage errors exit 2', async () => {
  const missing = await parcelctl(['admin', 'accounts', 'show', 'nobody']);
  expect(missing.code).toBe(1);
  expect(missing.stdout).toBe('');
  expect(missing.error()).toEqual({
    kind: 'problem',
    status: 404,
    message: 'Account not found',
    problem: {
      type: 'urn:parcel-logistics:problem:accountNotFound',
      title: 'Account not found',
      status: 404,
      instance: '/admin/v1/accounts/nobody',
    },
    body: null,
    attempts: 1,
  });
  const unknownType = await parcelctl(['admin', 'accounts', 'update', 'demo', '--service-types', 'LMD,NOPE']);
  expect([unknownType.code, unknownType.error().problem.detail]).toEqual([1, 'unknown service type(s): NOPE']);

  const wrongToken = await parcelctl(['admin', 'accounts', 'list'], { PARCEL_ADMIN_TOKEN: 'x'.repeat(40) });
  expect(wrongToken.code).toBe(3);
  expect(wrongToken.error()).toMatchObject({ kind: 'problem', status: 401, problem: { title: 'Unauthorized' } });
  const nowhere = await parcelctl(['admin', 'accounts', 'list', '--admin-url', 'http://127.0.0.1:9']);
  expect(nowhere.code).toBe(3);
  expect(nowhere.error()).toMatchObject({ kind: 'network', status: null });

  for (const args of [
    ['admin'],
    ['admin', 'accounts'],
    ['admin', 'accounts', 'remove', 'demo'],
    ['admin', 'accounts', 'show'],
    ['admin', 'accounts', 'update', 'demo'],
    ['admin', 'accounts', 'update', 'demo', '--can-cancel', 'maybe'],
    ['admin', 'accounts', 'create', 'x1', '--rate-limit', 'default'],
    ['admin', 'keys', 'revoke', 'demo'],
    ['admin', 'audit', '--limit', 'ten'],
    ['admin', 'accounts', 'list', '--format', 'pdf'],
  ]) {
    const r = await parcelctl(args);
    expect({ args, code: r.code }).toEqual({ args, code: 2 });
    expect(r.stderr).toMatch(/Run "parcelctl (admin )?--help" for usage\./);
  }
  const noToken = await parcelctl(['admin', 'accounts', 'list'], { PARCEL_ADMIN_TOKEN: undefined });
  expect(noToken.code).toBe(2);
  expect(noToken.stderr).toContain('no operator token: give --admin-token, or set PARCEL_ADMIN_TOKEN');
});

test('--help names every sub-command, the settings and where the address and token come from', async () => {
  const all = await parcelctl(['--help']);
  expect(all.stdout).toContain('  admin <accounts|keys|audit>');
  expect(all.stdout).toContain('--admin-url (env PARCEL_ADMIN_URL');
  const help = await parcelctl(['admin', '--help']);
  expect(help.code).toBe(0);
  for (const line of [
    'Usage: parcelctl [options] admin <accounts|keys|audit> <sub-command> [arguments]',
    'admin accounts create <api-name> [settings]',
    'admin accounts list',
    'admin accounts show <api-name>',
    'admin accounts update <api-name> <settings>',
    'admin accounts disable|enable <api-name>',
    'admin keys issue <api-name>',
    'admin keys list <api-name>',
    'admin keys revoke <api-name> <key-id>',
    'admin audit [--limit <n>] [--before <seq>]',
    '--admin-url <url>      the operator API (env PARCEL_ADMIN_URL',
    '--admin-token <token>  an operator',
    '--service-types <A,B,...>',
  ])
    expect(help.stdout).toContain(line);
});
