/**
 * An account's own retention (the operator API's `retentionDays`, docs/operations.md): with 0 days
 * after the final status for one account and the service's 90 for the rest, the sweep erases the
 * cancelled parcel of that account and keeps the other's; set for the other account too, the next
 * sweep erases its parcel, without a restart. The test's clock decides the sweep slots.
 */
import { DatabaseSync } from 'node:sqlite';
import path from 'node:path';
import { eventually, registeredParcel } from '../support/carriers.ts';
import { clientB, DEMO } from '../support/client.ts';
import { startTestStack } from '../support/stack.ts';
import type { TestStack } from '../support/stack.ts';
import { ADMIN_ENV, adminClient } from './support.ts';

const SWEEP_MS = 200;
let stack: TestStack;
beforeAll(async () => {
  stack = await startTestStack({
    ...ADMIN_ENV,
    PARCEL_PERSONAL_DATA_RETENTION_DAYS: '90',
    PARCEL_RETENTION_SWEEP_MS: String(SWEEP_MS),
  });
});
afterAll(() => stack.destroy());

/** Whether the parcel's stored view says its personal data is erased. */
function erased(tn: string): boolean {
  const db = new DatabaseSync(path.join(stack.dataDir, 'projections.db'), { readOnly: true });
  try {
    const row = db.prepare('SELECT doc FROM parcels WHERE tracking_number = ?').get(tn) as { doc: string };
    return JSON.parse(row.doc).personalDataErased === true;
  } finally {
    db.close();
  }
}

test('an account with 0 days has its cancelled parcel erased at the next sweep; the service’s 90 days keep the other’s until its account is changed too', async () => {
  const admin = adminClient(stack.adminUrl!);
  const created = await admin.post('/accounts', { apiName: 'keeper', canCancel: true, serviceTypes: ['LMD'] });
  const keeper = { apiName: 'keeper', apiKey: created.body.key.secret as string };
  expect((await admin.patch('/accounts/demo', { retentionDays: 0 })).body.retentionDays).toBe(0);

  const brief = await registeredParcel(stack);
  const kept = await registeredParcel(stack, {}, keeper);
  for (const [account, tn] of [
    [DEMO, brief.tn],
    [keeper, kept.tn],
  ] as const)
    expect(
      (await clientB(stack, account).post('order/cancel-orders', { tracking_nums: [tn] })).body.data.success,
    ).toEqual([tn]);

  stack.clock.advance(SWEEP_MS);
  await eventually(() => expect(erased(brief.tn)).toBe(true));
  // Swept in the same slot, by the service's 90 days: kept.
  expect(erased(kept.tn)).toBe(false);

  expect((await admin.patch('/accounts/keeper', { retentionDays: 0 })).status).toBe(200);
  stack.clock.advance(SWEEP_MS);
  await eventually(() => expect(erased(kept.tn)).toBe(true));
});
