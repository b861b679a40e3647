/**
 * Accounts and keys on the distributed wiring (docs/operations.md): two gateways share the
 * accounts in PostgreSQL. What one gateway's operator API changes, the other serves within 2 s
 * (each polls the store every second): a new account's key, a second key during a rotation, a
 * revoked key, a disabled account (its bearer token issued before included) and its enabling.
 * The audit log holds every action in order; at LOG_LEVEL=trace no log line, and no row of any
 * table of the run's schemas, holds a key in clear.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { clientA, clientB, raw, realTime, tokenFor } from '../support/client.ts';
import type { Target } from '../support/client.ts';
import { Cluster, requireInfra } from '../e2e/support/cluster.ts';
import { ADMIN_TOKEN, adminClient } from './support.ts';

jest.setTimeout(120_000);
/** How soon a change made through one gateway must be served by the other. */
const WITHIN_MS = 2000;
const logDir = mkdtempSync(path.join(tmpdir(), 'parcel-accounts-e2e-'));
const cluster = new Cluster({ PARCEL_ADMIN_TOKEN: `ops:${ADMIN_TOKEN}`, LOG_LEVEL: 'trace' }, { logDir });
let gateways: Target[];
let admins: ReturnType<typeof adminClient>[];
const secrets: string[] = [];

beforeAll(async () => {
  const started = [await cluster.start('gateway'), await cluster.start('gateway')];
  gateways = started.map((g) => realTime(g.url));
  admins = started.map((g) => adminClient(g.adminUrl!));
}, 120_000);
afterAll(async () => {
  await cluster.stop();
  rmSync(logDir, { recursive: true, force: true });
}, 60_000);

type Key = { apiName: string; apiKey: string };
const signs = async (gateway: Target, key: Key) =>
  (await clientB(gateway, key).get('station/get-stations', { zipcode: '238858' })).body.message as string;
const tokenAnswer = async (gateway: Target, key: Key) =>
  (
    await raw(`${gateway.url}/api/auth/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ ApiName: key.apiName, ApiKey: key.apiKey }),
    })
  ).body.Message as string;
const lookupCode = async (gateway: Target, token: string) =>
  (await clientA(gateway, token).post('status/lookup', { TrackingNumber: ['PX1'] })).body.Code as number;
/**
 * Every check holds on both gateways within WITHIN_MS of the change. Each gateway is asked every
 * 200 ms until its check holds, no more: a gateway that has not seen a change yet refuses a new key,
 * and each refusal counts against the address (all of this test's requests come from one).
 */
async function onBothWithin(check: (gateway: Target) => Promise<void>): Promise<void> {
  const deadline = Date.now() + WITHIN_MS;
  for (const gateway of gateways)
    for (;;) {
      try {
        await check(gateway);
        break;
      } catch (error) {
        if (Date.now() > deadline) throw error;
        await new Promise((resolve) => setTimeout(resolve, 200));
      }
    }
}

test('a change made through one gateway is served by the other within 2 s, and the audit log holds each in order', async () => {
  const created = await admins[0]!.post('/accounts', { apiName: 'acme-e2e', serviceTypes: ['LMD'] });
  expect(created.status).toBe(201);
  const first: Key = { apiName: 'acme-e2e', apiKey: created.body.key.secret };
  secrets.push(first.apiKey);
  await onBothWithin(async (g) => expect(await signs(g, first)).toBe('success'));

  const issued = await admins[1]!.post('/accounts/acme-e2e/keys');
  expect(issued.status).toBe(201);
  const second: Key = { apiName: 'acme-e2e', apiKey: issued.body.secret };
  secrets.push(second.apiKey);
  await onBothWithin(async (g) => {
    expect(await signs(g, first)).toBe('success');
    expect(await signs(g, second)).toBe('success');
  });

  expect((await admins[0]!.delete(`/accounts/acme-e2e/keys/${created.body.key.keyId}`)).status).toBe(204);
  await onBothWithin(async (g) => {
    expect(await signs(g, first)).toBe('x-auth-token: INVALID');
    expect(await tokenAnswer(g, first)).toBe('Invalid credentials');
    expect(await signs(g, second)).toBe('success');
  });

  const tokenBefore = await tokenFor(gateways[1]!, second);
  expect(await lookupCode(gateways[0]!, tokenBefore)).toBe(0);
  expect((await admins[1]!.post('/accounts/acme-e2e/disable')).body.disabled).toBe(true);
  await onBothWithin(async (g) => {
    expect(await signs(g, second)).toBe('x-auth-name: INVALID');
    expect(await tokenAnswer(g, second)).toBe('Invalid credentials');
    expect(await lookupCode(g, tokenBefore)).toBe(1003);
  });

  expect((await admins[0]!.post('/accounts/acme-e2e/enable')).body.disabled).toBe(false);
  await onBothWithin(async (g) => expect(await signs(g, second)).toBe('success'));
  const tokenAfter = await tokenFor(gateways[0]!, second);
  await onBothWithin(async (g) => {
    expect(await lookupCode(g, tokenAfter)).toBe(0);
    expect(await lookupCode(g, tokenBefore)).toBe(1003);
  });

  for (const admin of admins) {
    const audit = await admin.get('/audit?limit=50');
    expect(
      audit.body.entries
        .filter((e: { apiName: string }) => e.apiName === 'acme-e2e')
        .map((e: { actor: string; action: string }) => `${e.actor} ${e.action}`)
        .reverse(),
    ).toEqual([
      'ops account.created',
      'ops key.issued',
      'ops key.revoked',
      'ops account.disabled',
      'ops account.enabled',
    ]);
  }
});

test('no key is in clear in any table of the run’s schemas, nor in any log line at LOG_LEVEL=trace', async () => {
  expect(secrets).toHaveLength(2);
  const db = new pg.Client({ connectionString: requireInfra().pg });
  await db.connect();
  const rows: string[] = [];
  try {
    const tables = await db.query<{ schema: string; name: string }>(
      `SELECT table_schema AS schema, table_name AS name FROM information_schema.tables WHERE table_schema LIKE $1`,
      [`${cluster.runId}%`],
    );
    expect(tables.rows.map((t) => t.name)).toEqual(expect.arrayContaining(['accounts', 'account_audit']));
    for (const { schema, name } of tables.rows)
      for (const r of (await db.query<{ text: string }>(`SELECT t::text AS text FROM "${schema}"."${name}" AS t`)).rows)
        rows.push(r.text);
  } finally {
    await db.end();
  }
  // The seed's keys are in the accounts file, in clear by design; they must not reach the store either.
  for (const secret of [...secrets, 'demo-secret', 'other-secret'])
    expect(rows.filter((r) => r.includes(secret))).toEqual([]);

  await cluster.stop();
  const logs = readdirSync(logDir).map((f) => readFileSync(path.join(logDir, f), 'utf8'));
  // The gateways logged every request at this level.
  expect(logs.join('\n')).toMatch(/"level":20,.*"msg":"request"/);
  for (const secret of secrets) expect(logs.filter((l) => l.includes(secret))).toEqual([]);
  expect(logs.filter((l) => l.includes(ADMIN_TOKEN))).toEqual([]);
});
