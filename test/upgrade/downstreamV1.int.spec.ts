/**
 * parcel.events.v1 is a public contract: since the store keeps `ParcelRegistered.v2`, the orders of
 * the upgrade fixture created again with today's code go out byte for byte as the former code sent
 * them (but for the numbers, ids and times of this run), and the store holds them in domain words.
 */
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { downstreamOf, FIXTURE_DIR } from '../fixtures/dataV1/open.ts';
import type { Manifest } from '../fixtures/dataV1/probes.ts';
import { clientB } from '../support/client.ts';
import { startTestStack, TestClock } from '../support/stack.ts';

const read = <T>(name: string): T => JSON.parse(readFileSync(path.join(FIXTURE_DIR, name), 'utf8')) as T;
const manifest = read<Manifest>('manifest.json');
type Sent = Awaited<ReturnType<typeof downstreamOf>>[number];
interface Payload {
  eventId: string;
  trackingNumber: string;
  time: string;
  data: { trackingNumber: string; commandId: string; registeredAt: string; order: { custom_tracking_num: string } };
}

const registrations = (messages: Sent[]) =>
  new Map(
    messages
      .filter((m) => m.headers['event-type'] === 'ParcelRegistered.v1')
      .map((m) => [(JSON.parse(m.payload) as Payload).data.order.custom_tracking_num, m] as const),
  );

test('the fixture orders created again: ParcelRegistered.v3 (personal values sealed) in the store, ParcelRegistered.v1 downstream byte for byte', async () => {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'parcel-downstream-v1-'));
  const stack = await startTestStack({}, { dataDir, clock: new TestClock(Date.parse('2026-11-21T01:00:00Z')) });
  try {
    for (const body of Object.values(manifest.bodies))
      expect((await clientB(stack).post('order/create-order', body)).body.code).toBe(0);
    await stack.caughtUp();
  } finally {
    await stack.stop();
  }
  const db = new DatabaseSync(path.join(dataDir, 'events.db'));
  const types = db
    .prepare("SELECT DISTINCT type FROM events WHERE type LIKE 'ParcelRegistered%'")
    .all()
    .map((r) => r.type);
  const reference = db.prepare("SELECT data FROM events WHERE type = 'ParcelRegistered.v3' LIMIT 1").get() as {
    data: string;
  };
  db.close();
  expect(types).toEqual(['ParcelRegistered.v3']);
  expect(JSON.parse(reference.data).order).toHaveProperty('reference');
  expect(JSON.parse(reference.data).order.recipient.name).toBe('');
  expect(typeof JSON.parse(reference.data).sealed).toBe('string');

  const before = registrations(read<Sent[]>('downstream.json'));
  const now = registrations(await downstreamOf(dataDir));
  expect([...now.keys()].sort()).toEqual(
    Object.values(manifest.bodies)
      .map((b) => b.custom_tracking_num)
      .sort(),
  );
  for (const [ref, sent] of now) {
    const fresh = JSON.parse(sent.payload) as Payload;
    const former = JSON.parse(before.get(ref)!.payload) as Payload;
    // This run's own numbers, ids and times, written over the former message in place (its key order kept).
    Object.assign(former, { eventId: fresh.eventId, trackingNumber: fresh.trackingNumber, time: fresh.time });
    Object.assign(former.data, {
      trackingNumber: fresh.data.trackingNumber,
      commandId: fresh.data.commandId,
      registeredAt: fresh.data.registeredAt,
    });
    expect(sent.payload).toBe(JSON.stringify(former));
    expect(sent.headers['event-type']).toBe('ParcelRegistered.v1');
  }
});
