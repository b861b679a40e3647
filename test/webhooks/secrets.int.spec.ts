/**
 * Secrets are never logged and never returned after creation. The embedded
 * process (npm start) runs at LOG_LEVEL trace, the most it writes; an endpoint is created, its
 * secret rotated twice, a test event and parcel events delivered through failed attempts, and a
 * delivery to an address that does not resolve fails. Then every line the process wrote is searched
 * for each secret, whole, as its base64 key alone, and as the key's hex.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { clientB, realTime } from '../support/client.ts';
import { eventually } from '../support/carriers.ts';
import { orderBody } from '../support/orders.ts';
import { npmStart, stopGroup, npmStartEnv } from '../support/npmStart.ts';
import type { NpmStart } from '../support/npmStart.ts';
import { createEndpoint, startReceiver } from './support.ts';
import type { Receiver } from './support.ts';

let dataDir: string;
let receiver: Receiver;
let run: NpmStart | undefined;

beforeAll(async () => {
  dataDir = mkdtempSync(path.join(tmpdir(), 'parcel-webhook-secrets-'));
  receiver = await startReceiver();
});
afterAll(async () => {
  if (run) await stopGroup(run.pid);
  receiver?.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

/** The forms a secret could take in a log line. */
const forms = (secret: string) => {
  const key = secret.slice('whsec_'.length);
  return [secret, key, Buffer.from(key, 'base64').toString('hex')];
};

test('secrets are never logged and never returned after creation: not in any log line at trace, not in any answer after creation', async () => {
  run = await npmStart(
    await npmStartEnv(dataDir, {
      PARCEL_WEBHOOK_RETRY_SCHEDULE_MS: '100,100,100',
      PARCEL_WEBHOOK_POLL_MS: '20',
      LOG_LEVEL: 'trace',
    }),
  );
  const b = clientB(realTime(run.url));
  const secrets: string[] = [];
  const created = await createEndpoint(b, {
    url: `${receiver.url}/secrets`,
    event_types: ['ParcelRegistered'],
    description: 'secrets',
  });
  const endpointId = created.id;
  secrets.push(created.secret);
  for (let i = 0; i < 2; i++) {
    const rotated = await b.post('webhook/rotate-secret', { endpoint_id: endpointId });
    expect(rotated.body.code).toBe(0);
    secrets.push(rotated.body.data.secret);
  }
  // All three sign during the rotations; the receiver verifies each, and refuses every first attempt.
  await receiver.configure({ secrets, failFirst: 1 });
  const unresolvable = await createEndpoint(b, {
    url: 'http://parcel-test.invalid/hook',
    event_types: ['ParcelRegistered'],
  });
  secrets.push(unresolvable.secret);

  expect((await b.post('webhook/send-test-event', { endpoint_id: endpointId })).body.code).toBe(0);
  const order = await b.post('order/create-order', orderBody());
  expect(order.body.code).toBe(0);
  const trackingNumber = order.body.data.wmg_tracking_num as string;
  await eventually(async () => {
    const got = (await receiver.received()).filter((r) => r.verified);
    expect(got.map((r) => r.body.type).sort()).toEqual(['ParcelRegistered', 'WebhookTest']);
    expect(got.find((r) => r.body.type === 'ParcelRegistered')?.body.trackingNumber).toBe(trackingNumber);
  }, 30_000);

  // Never returned after creation: every read and change of the endpoints answers without them.
  const answers = [
    await b.get('webhook/list-endpoints'),
    await b.get('webhook/get-endpoint', { endpoint_id: endpointId }),
    await b.post('webhook/update-endpoint', { endpoint_id: endpointId, description: 'changed' }),
  ];
  for (const answer of answers) {
    expect(answer.body.code).toBe(0);
    const text = JSON.stringify(answer.body);
    for (const secret of secrets) for (const form of forms(secret)) expect(text).not.toContain(form);
  }

  await stopGroup(run.pid);
  await run.closed; // its last lines read too
  const log = run.fullOutput();
  run = undefined;
  // The log is the one that would hold them: it has the deliveries, the failures and the endpoint.
  expect(log).toContain('webhook delivered');
  expect(log).toContain('will retry');
  expect(log).toContain(endpointId);
  for (const secret of secrets) for (const form of forms(secret)) expect(log).not.toContain(form);
}, 180_000);
