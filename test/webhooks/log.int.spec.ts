/**
 * The delivery log and replay, on the embedded wiring with a receiver process that
 * verifies every request with `standardwebhooks`: every attempt is in the log with its status,
 * duration and the first bytes of the answer; a redelivered message comes again with the same
 * `webhook-id` and a valid signature; a replay since a time sends again exactly the account's
 * events recorded since then, in log order per parcel.
 */
import { clientB, DEMO, OTHER } from '../support/client.ts';
import { carrierNumberOf, eventually } from '../support/carriers.ts';
import { orderBody } from '../support/orders.ts';
import { createEndpoint, subscribe, useStackAndReceiver } from './support.ts';
import type { Received } from './support.ts';

// Delivery and the store run on real time; the gateway's clock starts at now, so a replay's `since` is within its cap.
const t = useStackAndReceiver({ PARCEL_WEBHOOK_RETRY_SCHEDULE_MS: '100,200,400' }, { realTime: true });

const SGT = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\+08:00$/;
const b = () => clientB(t.stack);

async function endpoint(url: string, eventTypes: string[], failFirst = 0): Promise<string> {
  const body = { url, event_types: eventTypes };
  const { id } = url.startsWith(t.receiver.url)
    ? await subscribe(b(), t.receiver, body, failFirst)
    : await createEndpoint(b(), body);
  return id;
}

async function order(account = DEMO): Promise<string> {
  const reply = await clientB(t.stack, account).post('order/create-order', orderBody());
  expect(reply.body.code).toBe(0);
  return reply.body.data.wmg_tracking_num as string;
}

/** Cancels once the LMX sandbox has registered the parcel (cancelling asks the carrier). */
async function cancel(tn: string): Promise<void> {
  await carrierNumberOf(b(), tn);
  expect((await b().post('order/cancel-orders', { tracking_nums: [tn] })).body.code).toBe(0);
}

const messages = async (endpointId: string) =>
  (await b().get('webhook/list-messages', { endpoint_id: endpointId, limit: '100' })).body.data.messages as Record<
    string,
    unknown
  >[];
const onPath = async (p: string) => (await t.receiver.received()).filter((r) => r.path === p);

test('"every attempt recorded (time, HTTP status or none, duration, the first bytes of the answer)": 503 twice, then delivered', async () => {
  const id = await endpoint(`${t.receiver.url}/log`, ['ParcelRegistered'], 2);
  const tn = await order();
  await eventually(
    async () => expect((await onPath('/log')).some((r) => r.body.trackingNumber === tn)).toBe(true),
    10_000,
  );
  const eventId = (await onPath('/log')).find((r) => r.body.trackingNumber === tn)!.id;

  const attempts = (await b().get('webhook/list-attempts', { endpoint_id: id, event_id: eventId })).body;
  expect(attempts).toMatchObject({ code: 0, message: 'success', data: { next_cursor: null } });
  expect(attempts.data.attempts.map((a: Record<string, unknown>) => [a.attempt, a.status, a.answer, a.reason])).toEqual(
    [
      [3, 200, 'ok', ''],
      [2, 503, 'not yet', 'HTTP 503'],
      [1, 503, 'not yet', 'HTTP 503'],
    ],
  );
  for (const a of attempts.data.attempts) {
    expect(a.event_id).toBe(eventId);
    expect(a.at).toMatch(SGT);
    expect(Number.isInteger(a.duration_ms) && a.duration_ms >= 0).toBe(true);
  }
  const [message] = (await messages(id)).filter((m) => m.event_id === eventId);
  expect(message).toMatchObject({
    event_type: 'ParcelRegistered',
    tracking_num: tn,
    state: 'delivered',
    attempts: 3,
    next_attempt_at: null,
  });
  expect(message!.settled_at).toMatch(SGT);
  expect(typeof message!.position).toBe('number');
}, 20_000);

test('"plus the failure reason for network errors": a refused connection has no status, and is given up after the schedule', async () => {
  const id = await endpoint('http://127.0.0.1:9/dead', ['ParcelRegistered']);
  await order();
  await eventually(async () => expect((await messages(id)).map((m) => m.state)).toEqual(['failed']), 10_000);
  const [message] = await messages(id);
  expect(message).toMatchObject({ attempts: 4, next_attempt_at: null });
  const attempts = (await b().get('webhook/list-attempts', { endpoint_id: id })).body.data.attempts as Record<
    string,
    unknown
  >[];
  expect(attempts.map((a) => a.attempt)).toEqual([4, 3, 2, 1]);
  for (const a of attempts)
    expect(a).toMatchObject({
      status: null,
      answer: '',
      reason: expect.stringMatching(/^network error: .*ECONNREFUSED/),
    });
  // Pages of 3, then 1, with the same attempts in the same order.
  const first = (await b().get('webhook/list-attempts', { endpoint_id: id, limit: '3' })).body.data;
  const second = (await b().get('webhook/list-attempts', { endpoint_id: id, limit: '3', cursor: first.next_cursor }))
    .body.data;
  expect([...first.attempts, ...second.attempts]).toEqual(attempts);
  expect(second.next_cursor).toBeNull();
  await b().post('webhook/delete-endpoint', { endpoint_id: id });
}, 20_000);

test('"Redeliver one message": the same webhook-id, a valid signature; a message still pending is not queued twice', async () => {
  const id = await endpoint(`${t.receiver.url}/again`, ['ParcelRegistered']);
  const tn = await order();
  await eventually(
    async () => expect((await onPath('/again')).some((r) => r.body.trackingNumber === tn)).toBe(true),
    10_000,
  );
  const first = (await onPath('/again')).find((r) => r.body.trackingNumber === tn)!;

  // Disabled, the redelivered message waits: asked again meanwhile, it is already pending.
  await b().post('webhook/update-endpoint', { endpoint_id: id, enabled: false });
  const redelivered = await b().post('webhook/redeliver', { endpoint_id: id, event_id: first.id });
  expect(redelivered.body).toEqual({
    code: 0,
    message: 'success',
    data: { endpoint_id: id, event_id: first.id, already_pending: false },
  });
  const again = await b().post('webhook/redeliver', { endpoint_id: id, event_id: first.id });
  expect(again.body.data.already_pending).toBe(true);
  expect((await messages(id)).find((m) => m.event_id === first.id)).toMatchObject({
    state: 'waiting',
    attempts: 0,
    settled_at: null,
  });

  await b().post('webhook/update-endpoint', { endpoint_id: id, enabled: true });
  await eventually(
    async () => expect((await onPath('/again')).filter((r) => r.id === first.id)).toHaveLength(2),
    10_000,
  );
  const second = (await onPath('/again')).filter((r) => r.id === first.id)[1]!;
  expect(second).toMatchObject({ verified: true, signatures: 1, body: first.body });
  expect(second.timestamp).toBeGreaterThanOrEqual(first.timestamp);
  expect((await messages(id)).find((m) => m.event_id === first.id)).toMatchObject({ state: 'delivered', attempts: 1 });
  await b().post('webhook/delete-endpoint', { endpoint_id: id });
}, 20_000);

test('"Replay since a time": exactly the account’s subscribed events recorded since then, again, in log order per parcel', async () => {
  const id = await endpoint(`${t.receiver.url}/replay`, ['ParcelRegistered', 'ParcelCancelled']);
  const before = await order();
  await cancel(before);
  await eventually(
    async () => expect((await onPath('/replay')).filter((r) => r.body.trackingNumber === before)).toHaveLength(2),
    10_000,
  );
  await new Promise((resolve) => setTimeout(resolve, 20));
  const since = new Date().toISOString();
  await new Promise((resolve) => setTimeout(resolve, 20));
  const after = [await order(), await order()];
  await cancel(after[0]!);
  const theirs = await order(OTHER);
  await t.stack.caughtUp();
  await eventually(async () => expect((await messages(id)).every((m) => m.state === 'delivered')).toBe(true), 10_000);
  await eventually(
    async () => expect((await onPath('/replay')).filter((r) => after.includes(r.body.trackingNumber))).toHaveLength(3),
    10_000,
  );
  const sent = await onPath('/replay');

  const replay = await b().post('webhook/replay', { endpoint_id: id, since });
  expect(replay.body).toMatchObject({
    code: 0,
    data: { endpoint_id: id, status: 'requested', scanned: 0, queued: 0, finished_at: null },
  });
  const replayId = replay.body.data.replay_id as string;
  expect(replayId).toMatch(/^rp_[0-9a-f]{24}$/);
  await eventually(
    async () =>
      expect((await b().get('webhook/get-replay', { endpoint_id: id, replay_id: replayId })).body.data.status).toBe(
        'done',
      ),
    10_000,
  );
  const done = (await b().get('webhook/get-replay', { endpoint_id: id, replay_id: replayId })).body.data;
  expect(done).toMatchObject({ queued: 3, finished_at: expect.stringMatching(SGT) });
  expect(done.scanned).toBeGreaterThan(3);

  await eventually(async () => expect((await onPath('/replay')).length).toBe(sent.length + 3), 10_000);
  const replayed: Received[] = (await onPath('/replay')).slice(sent.length);
  const expected = sent.filter((r) => after.includes(r.body.trackingNumber));
  expect(replayed.map((r) => r.id).sort()).toEqual(expected.map((r) => r.id).sort());
  expect(replayed.every((r) => r.verified)).toBe(true);
  expect(replayed.some((r) => r.body.trackingNumber === before || r.body.trackingNumber === theirs)).toBe(false);
  const ofFirst = replayed.filter((r) => r.body.trackingNumber === after[0]).map((r) => r.body.type);
  expect(ofFirst).toEqual(['ParcelRegistered', 'ParcelCancelled']);
  // Nothing more comes: a replay is sent once.
  await t.stack.caughtUp();
  expect((await onPath('/replay')).length).toBe(sent.length + 3);
}, 30_000);
