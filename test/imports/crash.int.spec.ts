/**
 * docs/bulk.md, "Importing orders from a CSV file": an import survives a `kill -9` half-way. The
 * real `npm start` is killed while it creates the orders, started again on the same data, and every
 * good row's order is created exactly once: none is missing, none is refused as a repeat of itself.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { ImportResult } from '@parcel-logistics/contracts';
import { clientB, realTime } from '../support/client.ts';
import { eventually } from '../support/carriers.ts';
import { groupMembers, killGroup, npmStart, npmStartEnv, stopGroup, within } from '../support/npmStart.ts';
import type { NpmStart } from '../support/npmStart.ts';
import { csvOf, orderBody } from '../support/orders.ts';

const ROWS = 5000;
let dataDir: string;
let run: NpmStart | undefined;

beforeAll(() => {
  dataDir = mkdtempSync(path.join(tmpdir(), 'parcel-import-crash-'));
});
afterAll(async () => {
  if (run) await stopGroup(run.pid);
  rmSync(dataDir, { recursive: true, force: true });
});

test('kill -9 half-way through an import, then a restart: every good row is created exactly once', async () => {
  const env = await npmStartEnv(dataDir, { LOG_LEVEL: 'warn' });
  run = await npmStart(env);
  const bodies = Array.from({ length: ROWS }, () => orderBody());
  const accepted = await clientB(realTime(run.url)).csv('order/import-orders', csvOf(bodies));
  expect(accepted.body.data).toMatchObject({ rows: ROWS, accepted: ROWS, rejected: 0 });
  const importId: string = accepted.body.data.import_id;

  // Killed once some parts are created and others are not.
  let seen: Partial<ImportResult> = {};
  const halfWay = await within(60_000, async () => {
    seen = (await clientB(realTime(run!.url)).get('order/get-import', { import_id: importId })).body.data;
    return (seen.created ?? 0) > 0;
  });
  expect(halfWay).toBe(true);
  expect(seen.state).toBe('running');
  killGroup(run.pid);
  expect(await within(10_000, () => groupMembers(run!.pid).length === 0)).toBe(true);

  run = await npmStart(env);
  const b = clientB(realTime(run.url));
  let done: Partial<ImportResult> = {};
  await eventually(async () => {
    done = (await b.get('order/get-import', { import_id: importId })).body.data;
    expect(done.state).toBe('finished');
  }, 120_000);
  expect(done).toMatchObject({ rows: ROWS, accepted: ROWS, created: ROWS, rejected: 0, errors: [] });

  // Each reference has its order, and one tracking number only (views of orders created just
  // before the kill are written when the projector catches up after the restart).
  const numbers = new Map<string, string>();
  await eventually(async () => {
    for (const body of bodies) {
      const ref = String(body.custom_tracking_num);
      if (numbers.has(ref)) continue;
      const found = await b.get('order/get-barcode', { custom_tracking_num: ref });
      expect({ ref, message: found.body.message }).toEqual({ ref, message: 'success' });
      numbers.set(ref, found.body.data.barcode);
    }
  }, 60_000);
  expect(new Set(numbers.values()).size).toBe(ROWS);
}, 300_000);
