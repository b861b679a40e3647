/**
 * No API key in clear at rest or in a log line, on `npm start`'s wiring (docs/operations.md): an
 * account made, a key issued and used on both interfaces (interface A sends it in a body), a key
 * revoked, a wrong key and a wrong admin token tried, every line logged at trace into memory; then
 * every byte of every file of the data directory and every log line are searched for each key and
 * the admin token, as UTF-8 and UTF-16.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { clientB, tokenFor } from '../support/client.ts';
import { capturedLog, startTestStack } from '../support/stack.ts';
import type { TestStack } from '../support/stack.ts';
import { ADMIN_ENV, ADMIN_TOKEN, adminClient } from './support.ts';

const { lines, log } = capturedLog();
let stack: TestStack;
beforeAll(async () => {
  stack = await startTestStack({ ...ADMIN_ENV, LOG_LEVEL: 'trace' }, undefined, log);
});
afterAll(() => stack.destroy());

const found = (bytes: Buffer, secret: string) =>
  bytes.includes(Buffer.from(secret, 'utf8')) || bytes.includes(Buffer.from(secret, 'utf16le'));

test('keys issued, used, revoked and mistyped leave no key in any file of the data directory nor in any log line at trace', async () => {
  const admin = adminClient(stack.adminUrl!);
  const created = await admin.post('/accounts', { apiName: 'scan' });
  const first = { apiName: 'scan', apiKey: created.body.key.secret as string };
  const second = { apiName: 'scan', apiKey: (await admin.post('/accounts/scan/keys')).body.secret as string };
  for (const key of [first, second]) {
    expect((await clientB(stack, key).get('station/get-stations', { zipcode: '238858' })).body.code).toBe(0);
    await tokenFor(stack, key);
  }
  expect((await admin.delete(`/accounts/scan/keys/${created.body.key.keyId}`)).status).toBe(204);
  expect((await clientB(stack, first).get('station/get-stations', { zipcode: '238858' })).body.code).toBe(1);
  expect((await adminClient(stack.adminUrl!, `${ADMIN_TOKEN}x`).get('/accounts')).status).toBe(401);
  await stack.stop();

  const secrets = [first.apiKey, second.apiKey, ADMIN_TOKEN, 'demo-secret', 'other-secret'];
  const files = readdirSync(stack.dataDir);
  expect(files).toEqual(expect.arrayContaining(['accounts.db', 'events.db', 'projections.db']));
  for (const name of files) {
    const bytes = readFileSync(path.join(stack.dataDir, name));
    expect({ name, leaked: secrets.filter((s) => found(bytes, s)) }).toEqual({ name, leaked: [] });
  }
  // The requests were logged: both interfaces' and the operator's.
  expect(lines.filter((l) => l.includes('"msg":"request"')).length).toBeGreaterThanOrEqual(5);
  expect(lines.filter((l) => l.includes('"msg":"operator request"')).length).toBe(3);
  expect(lines.filter((l) => l.includes('"msg":"operator request refused"')).length).toBe(1);
  const log = Buffer.from(lines.join(''));
  expect(secrets.slice(0, 3).filter((s) => found(log, s))).toEqual([]);
  stack = await stack.restart();
});
