/**
 * Import parts left without their import (docs/bulk.md, "Personal data"): the retention sweep
 * destroys their keys once they have waited a day, and leaves alone the parts of a recorded import,
 * parts younger than that, and B2's batches.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import {
  createParcelProjector,
  personalDataShredder,
  randomIds,
  sealingEventStore,
} from '@parcel-logistics/application';
import { batchStreamName, importPartBatchId } from '@parcel-logistics/contracts';
import { sampleParcelOrder } from '@parcel-logistics/domain/testing';
import { createSqliteEventStore } from '@parcel-logistics/eventstore-sqlite';
import { masterKeyFromBytes } from '@parcel-logistics/keys';
import { createSqliteKeyStore } from '@parcel-logistics/keys/sqlite';
import { createSqliteProjectionStore } from '@parcel-logistics/projections-sqlite';
import { acceptOrderBatch } from '../creatingOrders/handler.ts';
import { sweepRetention } from '../retainingPersonalData/worker.ts';
import { acceptOrderImport, recordImportPart } from './handler.ts';
import { ABANDONED_PART_MS } from './worker.ts';

const RECIPIENT = 'Abandoned-Part Recipient';
const registration = (reference: string) => ({
  clientId: 'demo',
  order: { ...sampleParcelOrder({ reference }), recipient: { ...sampleParcelOrder().recipient, name: RECIPIENT } },
  serviceType: 'LMD',
  carrier: 'LMX',
});

test('a part whose import was never recorded loses its key at the first sweep a day after it was accepted; nothing else does', async () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'abandoned-parts-'));
  let now = Date.parse('2026-11-22T06:00:00Z');
  const clock = { now: () => new Date(now) };
  const keys = createSqliteKeyStore({
    file: path.join(dir, 'keys.db'),
    masterKey: masterKeyFromBytes(Buffer.alloc(32, 9)),
  });
  const eventStore = sealingEventStore(createSqliteEventStore({ file: path.join(dir, 'events.db') }), keys);
  const projections = createSqliteProjectionStore({ file: path.join(dir, 'views.db') });
  const deps = {
    eventStore,
    projector: createParcelProjector({ eventStore, views: projections.parcels }),
    views: projections.parcels,
    clock,
    ids: randomIds,
    personalData: personalDataShredder(eventStore, projections),
    retention: { afterFinalDays: 90, maxDays: 365, sweepMs: 60_000 },
  };
  const part = (importId: string, n: number) =>
    recordImportPart(
      deps,
      { importId, clientId: 'demo', part: n, orders: [registration(`${importId}-${n}`)], rows: [n + 1] },
      `${importId}/${n}`,
    );
  const activeKeys = async () =>
    (await keys.list({ limit: 100 })).filter((k) => k.state === 'active').map((k) => k.parcelId);
  try {
    // Import A: two parts, then its gateway stopped. Import B: a part and its summary.
    await part('import-a', 0);
    await part('import-a', 1);
    await part('import-b', 0);
    await acceptOrderImport(
      deps,
      { importId: 'import-b', clientId: 'demo', rows: 1, accepted: 1, parts: 1, rejected: [] },
      'import-b',
    );
    await acceptOrderBatch(deps, { batchId: 'b2-batch', clientId: 'demo', orders: [registration('B2-1')] }, 'b2');
    const partsOfA = [0, 1].map((n) => batchStreamName(importPartBatchId('import-a', n)));
    const kept = [batchStreamName(importPartBatchId('import-b', 0)), batchStreamName('b2-batch')];
    expect((await activeKeys()).sort()).toEqual([...partsOfA, ...kept].sort());

    // A minute short of a day: every key stays.
    now += ABANDONED_PART_MS - 60_000;
    expect(await sweepRetention(deps)).toMatchObject({ erased: 0, abandonedParts: 0 });
    expect((await activeKeys()).sort()).toEqual([...partsOfA, ...kept].sort());

    now += 60_000;
    expect(await sweepRetention(deps)).toMatchObject({ erased: 0, abandonedParts: 2 });
    expect((await activeKeys()).sort()).toEqual(kept.sort());
    // The parts' events are still there, their personal values no longer readable.
    for (const stream of partsOfA) {
      const [event] = await eventStore.readStream(stream);
      expect(event?.type).toMatch(/^OrderBatchAccepted/);
      expect(JSON.stringify(event)).not.toContain(RECIPIENT);
    }
    const [ofB] = await eventStore.readStream(kept[0]!);
    expect(JSON.stringify(ofB)).toContain(RECIPIENT);

    // The next slot finds nothing more to destroy.
    now += 60_000;
    expect(await sweepRetention(deps)).toMatchObject({ abandonedParts: 0 });
  } finally {
    await eventStore.close();
    await projections.close();
    rmSync(dir, { recursive: true, force: true });
  }
});
