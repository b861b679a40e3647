/**
 * Retention by policy on `npm start`'s wiring (docs/personal-data.md, "Retention"): with 0 days
 * after the final status, a cancelled parcel's personal data is erased by the first sweep after it,
 * without any request; a parcel not yet final keeps its own. The test's clock decides the slots:
 * while it stands still, every sweep after the first finds its slot swept already.
 */
import { DatabaseSync } from 'node:sqlite';
import path from 'node:path';
import { RETENTION_SWEEP_STREAM_PREFIX, RetentionSweepEventTypes } from '@parcel-logistics/contracts';
import { eventually, registeredParcel } from '../support/carriers.ts';
import { clientB } from '../support/client.ts';
import { startTestStack } from '../support/stack.ts';
import type { TestStack } from '../support/stack.ts';
import { markedOrder, markers } from './markers.ts';
import type { Markers } from './markers.ts';

const SWEEP_MS = 200;
let stack: TestStack;

beforeAll(async () => {
  stack = await startTestStack({
    PARCEL_PERSONAL_DATA_RETENTION_DAYS: '0',
    PARCEL_RETENTION_SWEEP_MS: String(SWEEP_MS),
  });
});
afterAll(() => stack.destroy());

const status = async (tn: string) => (await clientB(stack).get('order/query-status', { tracking_num: tn })).body.data;
const label = async (tn: string) =>
  (await clientB(stack).get('order-shipping-label/get-shipping-label-html', { tracking_num: tn })).body;
const shows = (value: unknown, m: Markers) => Object.values(m).filter((v) => JSON.stringify(value).includes(v));

/** The parcel's view as stored, read from its file. */
function storedView(tn: string): { personalDataErased?: true } {
  const db = new DatabaseSync(path.join(stack.dataDir, 'projections.db'), { readOnly: true });
  try {
    const row = db.prepare('SELECT doc FROM parcels WHERE tracking_number = ?').get(tn) as { doc: string };
    return JSON.parse(row.doc);
  } finally {
    db.close();
  }
}

/** The events of the store's log, read from its file. */
function storedEvents(): { stream_name: string; type: string; data: string }[] {
  const db = new DatabaseSync(path.join(stack.dataDir, 'events.db'), { readOnly: true });
  try {
    return db.prepare('SELECT stream_name, type, data FROM events ORDER BY global_position').all() as never;
  } finally {
    db.close();
  }
}

test('a cancelled parcel is erased at the next sweep without a request; a parcel not yet final is not', async () => {
  const [mc, ma] = [markers(), markers()];
  const cancelled = await registeredParcel(stack, markedOrder(mc));
  const active = await registeredParcel(stack, markedOrder(ma));
  const reply = await clientB(stack).post('order/cancel-orders', { tracking_nums: [cancelled.tn] });
  expect(reply.body.data.success).toEqual([cancelled.tn]);
  // The clock has not moved: this slot was swept before the cancellation.
  expect(shows(storedView(cancelled.tn), mc)).toContain(mc.recipientName);

  stack.clock.advance(SWEEP_MS);
  await eventually(async () => expect(storedView(cancelled.tn)).toMatchObject({ personalDataErased: true }));
  expect(shows(storedView(cancelled.tn), mc)).toEqual([]);
  const erased = await status(cancelled.tn);
  expect(erased.last_status).toBe('CN_CN');
  expect(shows(erased, mc)).toEqual([]);
  expect(await label(cancelled.tn)).toEqual({ code: 1, message: 'Personal data erased', data: [] });

  expect(storedView(active.tn)).not.toHaveProperty('personalDataErased');
  expect(shows(storedView(active.tn), ma)).toContain(ma.recipientName);
  expect((await label(active.tn)).code).toBe(0);

  // Later slots find nothing more to erase: one erasure, by retention, and each slot swept once.
  stack.clock.advance(SWEEP_MS);
  await eventually(() => {
    const sweeps = storedEvents().filter((e) => e.stream_name.startsWith(RETENTION_SWEEP_STREAM_PREFIX));
    expect(new Set(sweeps.map((e) => e.stream_name)).size).toBeGreaterThanOrEqual(3);
  });
  await stack.caughtUp();
  const events = storedEvents();
  const erasures = events.filter((e) => e.type === 'PersonalDataErased.v1');
  expect(erasures.map((e) => [e.stream_name, JSON.parse(e.data).reason])).toEqual([
    [`parcel-${cancelled.tn}`, 'retention'],
  ]);
  const sweeps = events.filter((e) => e.stream_name.startsWith(RETENTION_SWEEP_STREAM_PREFIX));
  const claims = sweeps.filter((e) => e.type === RetentionSweepEventTypes.claimed).map((e) => e.stream_name);
  expect(new Set(claims).size).toBe(claims.length);
  expect(
    sweeps.filter((e) => e.type === RetentionSweepEventTypes.finished).map((e) => JSON.parse(e.data).erased),
  ).toEqual(expect.arrayContaining([1]));
}, 60_000);
