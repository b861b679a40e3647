/** The webhook endpoint operations through InterfaceBClient, typed, failures as values. */
import { useStackWithClientB } from './support.ts';

const b = useStackWithClientB();

test('create, list, get, update, rotate, test event and delete, each a typed result', async () => {
  const created = await b.client.createWebhookEndpoint({
    url: 'https://hooks.example.com/sdk',
    event_types: ['ParcelRegistered'],
    description: 'sdk',
  });
  if (!created.ok) throw new Error(JSON.stringify(created.error));
  expect(created.data.secret).toMatch(/^whsec_/);
  const id = created.data.endpoint_id;

  const listed = await b.client.listWebhookEndpoints();
  expect(listed.ok && listed.data.map((e) => e.endpoint_id)).toContain(id);
  const got = await b.client.getWebhookEndpoint(id);
  expect(got.ok && got.data.description).toBe('sdk');

  const updated = await b.client.updateWebhookEndpoint({
    endpoint_id: id,
    enabled: false,
    event_types: ['ParcelCancelled'],
  });
  expect(updated.ok && [updated.data.enabled, updated.data.event_types]).toEqual([false, ['ParcelCancelled']]);

  const rotated = await b.client.rotateWebhookSecret(id);
  expect(rotated.ok && rotated.data.secret).toMatch(/^whsec_/);
  expect(rotated.ok && rotated.data.secret).not.toBe(created.data.secret);

  const test = await b.client.sendWebhookTestEvent(id);
  expect(test.ok && test.data.endpoint_id).toBe(id);

  expect(await b.client.deleteWebhookEndpoint(id)).toMatchObject({ ok: true, data: { endpoint_id: id } });
  const gone = await b.client.getWebhookEndpoint(id);
  expect(gone.ok).toBe(false);
  expect(!gone.ok && gone.error).toMatchObject({ code: 1, message: 'Webhook endpoint not found' });
});

test('the delivery log and replay: messages, attempts, redeliver, replay and its status, each a typed result', async () => {
  const created = await b.client.createWebhookEndpoint({
    url: 'https://hooks.example.com/log',
    event_types: ['ParcelRegistered'],
  });
  if (!created.ok) throw new Error(JSON.stringify(created.error));
  const id = created.data.endpoint_id;
  const sent = await b.client.sendWebhookTestEvent(id);
  if (!sent.ok) throw new Error(JSON.stringify(sent.error));
  const eventId = sent.data.event_id;

  const messages = await b.client.listWebhookMessages(id, { limit: 1 });
  expect(messages.ok && messages.data.messages.map((m) => [m.event_id, m.event_type, m.position])).toEqual([
    [eventId, 'WebhookTest', null],
  ]);
  expect(messages.ok && messages.data.next_cursor).toBeNull();
  const attempts = await b.client.listWebhookAttempts(id, { eventId, limit: 5 });
  expect(attempts.ok && attempts.data.attempts.every((a) => a.event_id === eventId)).toBe(true);

  // The test event waits for its retry (the host does not resolve here, or answers later): still pending.
  const again = await b.client.redeliverWebhookMessage(id, eventId);
  expect(again).toMatchObject({ ok: true, data: { endpoint_id: id, event_id: eventId, already_pending: true } });
  const unknown = await b.client.redeliverWebhookMessage(id, '00000000-0000-4000-8000-000000000000');
  expect(!unknown.ok && unknown.error).toMatchObject({ code: 1, message: 'Webhook message not found' });

  const replay = await b.client.replayWebhookEndpoint(id, new Date('2026-11-22T00:00:00Z'));
  if (!replay.ok) throw new Error(JSON.stringify(replay.error));
  expect(replay.data).toMatchObject({ endpoint_id: id, since: '2026-11-22T08:00:00+08:00', status: 'requested' });
  const status = await b.client.getWebhookReplay(id, replay.data.replay_id);
  expect(status.ok && status.data.replay_id).toBe(replay.data.replay_id);
  const tooOld = await b.client.replayWebhookEndpoint(id, '2026-01-01T00:00:00Z');
  expect(!tooOld.ok && tooOld.error).toMatchObject({ code: 1, message: 'since must be within the last 30 days' });
  await b.client.deleteWebhookEndpoint(id);
});
