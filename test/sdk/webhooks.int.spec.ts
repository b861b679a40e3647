/** Issue 16: the webhook endpoint operations through InterfaceBClient, typed, failures as values. */
import { InterfaceBClient } from '@parcel/client';
import { startTestStack } from '../support/stack.ts';
import type { TestStack } from '../support/stack.ts';
import { optionsFor } from './support.ts';

let stack: TestStack;
let client: InterfaceBClient;
beforeAll(async () => {
  stack = await startTestStack();
  client = new InterfaceBClient(optionsFor(stack));
});
afterAll(() => stack.destroy());

test('create, list, get, update, rotate, test event and delete, each a typed result', async () => {
  const created = await client.createWebhookEndpoint({ url: 'https://hooks.example.com/sdk', event_types: ['ParcelRegistered'], description: 'sdk' });
  if (!created.ok) throw new Error(JSON.stringify(created.error));
  expect(created.data.secret).toMatch(/^whsec_/);
  const id = created.data.endpoint_id;

  const listed = await client.listWebhookEndpoints();
  expect(listed.ok && listed.data.map((e) => e.endpoint_id)).toContain(id);
  const got = await client.getWebhookEndpoint(id);
  expect(got.ok && got.data.description).toBe('sdk');

  const updated = await client.updateWebhookEndpoint({ endpoint_id: id, enabled: false, event_types: ['ParcelCancelled'] });
  expect(updated.ok && [updated.data.enabled, updated.data.event_types]).toEqual([false, ['ParcelCancelled']]);

  const rotated = await client.rotateWebhookSecret(id);
  expect(rotated.ok && rotated.data.secret).toMatch(/^whsec_/);
  expect(rotated.ok && rotated.data.secret).not.toBe(created.data.secret);

  const test = await client.sendWebhookTestEvent(id);
  expect(test.ok && test.data.endpoint_id).toBe(id);

  expect(await client.deleteWebhookEndpoint(id)).toMatchObject({ ok: true, data: { endpoint_id: id } });
  const gone = await client.getWebhookEndpoint(id);
  expect(gone.ok).toBe(false);
  expect(!gone.ok && gone.error).toMatchObject({ code: 1, message: 'Webhook endpoint not found' });
});
