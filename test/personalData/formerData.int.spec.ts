/**
 * Data written before personal values were sealed (docs/personal-data.md): the dataV1 and dataV2
 * fixtures (personal values in clear in their events) open with today's code, which seals those
 * events in place once, on start; then their parcels can be erased, after which no file of the data
 * directory holds the erased parcel's values. (test/upgrade/dataV1 and dataV2 show that the migrated
 * directories answer every endpoint as they did, their projections kept or rebuilt.)
 */
import { readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import type { Manifest } from '../fixtures/dataV1/probes.ts';
import { copyData } from '../fixtures/dataV1/open.ts';
import { clientB } from '../support/client.ts';
import { startTestStack, TestClock } from '../support/stack.ts';
import { needles, scanFiles } from './markers.ts';

const FIXTURES = ['dataV1', 'dataV2'].map((name) => {
  const dir = path.join(import.meta.dirname, '../fixtures', name);
  return { name, dir, manifest: JSON.parse(readFileSync(path.join(dir, 'manifest.json'), 'utf8')) as Manifest };
});

/** What only one parcel's order holds: its recipient's name and e-mail. */
const ownValues = (body: Record<string, unknown>) =>
  [body.recipient_name, body.recipient_email].filter((v): v is string => typeof v === 'string');

describe.each(FIXTURES)('$name', ({ dir, manifest }) => {
  const roles = Object.keys(manifest.bodies);
  // A parcel with a value of its own (dataV1's orders share their recipient's name).
  const erasedRole = roles.includes('delivered') ? 'delivered' : 'labelled';
  const allValues = [...new Set(roles.flatMap((role) => ownValues(manifest.bodies[role]!)))];
  // The erased parcel's values that no other parcel of the fixture shares.
  const othersValues = new Set(roles.filter((r) => r !== erasedRole).flatMap((r) => ownValues(manifest.bodies[r]!)));
  const erasedValues = ownValues(manifest.bodies[erasedRole]!).filter((v) => !othersValues.has(v));
  let dataDir: string;
  beforeAll(() => {
    dataDir = copyData({ fixtureDir: dir });
  });
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  test('its events hold personal values in clear before; once opened, no event-store file holds one, and the migration is recorded', async () => {
    expect(allValues.length).toBeGreaterThan(1);
    const eventFiles = (hits: string[]) => hits.filter((hit) => hit.startsWith('events.db'));
    expect(eventFiles(scanFiles(dataDir, needles(allValues))).length).toBeGreaterThan(0);
    const stack = await startTestStack(
      { PARCEL_BATCH_CREATE: 'on' },
      { dataDir, clock: new TestClock(manifest.clockMs) },
    );
    await stack.caughtUp();
    await stack.stop();
    expect(eventFiles(scanFiles(dataDir, needles(allValues)))).toEqual([]);
    const db = new DatabaseSync(path.join(dataDir, 'events.db'), { readOnly: true });
    const ran = db.prepare("SELECT detail FROM migrations WHERE name = 'seal-personal-data'").get() as
      { detail: string } | undefined;
    db.close();
    expect(JSON.parse(ran!.detail).sealed).toBeGreaterThan(0);
  });

  test('a parcel of it is erased, and no file of the directory holds its values afterwards; the others keep theirs', async () => {
    const stack = await startTestStack(
      { PARCEL_BATCH_CREATE: 'on' },
      { dataDir, clock: new TestClock(manifest.clockMs) },
    );
    try {
      await stack.caughtUp();
      const { tn } = manifest.parcels[erasedRole]!;
      const reply = await clientB(stack).post('order/erase-personal-data', { tracking_nums: [tn] });
      expect(reply.body.data).toEqual({ success: [tn], errors: [] });
      const kept = manifest.parcels[roles.find((r) => r !== erasedRole)!]!;
      const other = await clientB(stack).get('order/query-status', { tracking_num: kept.tn });
      expect(other.body.code).toBe(0);
      await stack.caughtUp();
    } finally {
      await stack.stop();
    }
    expect(erasedValues.length).toBeGreaterThan(0);
    expect(scanFiles(dataDir, needles(erasedValues))).toEqual([]);
  });
});
