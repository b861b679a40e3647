/**
 * Create-manifest's crash completion and its concurrency rule, on the embedded adapters: a manifest
 * recorded without its marks (the request died after step 1) is finished by the worker; two
 * manifests listing the same parcel never both hold it.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createParcelProjector, handleCommand, handleParcelCommand, randomIds } from '@parcel-logistics/application';
import { manifestStreamName } from '@parcel-logistics/contracts';
import { manifestDecider } from '@parcel-logistics/domain';
import type { ManifestLine } from '@parcel-logistics/domain';
import { sampleParcelOrder } from '@parcel-logistics/domain/testing';
import { createSqliteEventStore } from '@parcel-logistics/eventstore-sqlite';
import { createSqliteProjectionStore } from '@parcel-logistics/projections-sqlite';
import { loadReferenceData } from '@parcel-logistics/reference-data';
import { createOrder } from '../creatingOrder/handler.ts';
import { createManifest, finishManifest } from './handler.ts';
import type { ManifestDeps } from './handler.ts';
import { startManifestWorker } from './worker.ts';

const now = new Date('2026-11-22T10:00:00Z');

async function rig() {
  const dir = mkdtempSync(path.join(tmpdir(), 'manifests-'));
  const eventStore = createSqliteEventStore({ file: path.join(dir, 'events.db'), durability: 'normal' });
  const projections = createSqliteProjectionStore({ file: path.join(dir, 'views.db') });
  const projector = createParcelProjector({ eventStore, views: projections.parcels });
  const deps: ManifestDeps = {
    eventStore,
    projector,
    ids: randomIds,
    clock: { now: () => now },
    views: projections.parcels,
    manifests: projections.manifests,
    ref: loadReferenceData(),
    carriers: new Map([['LMX', {}]]),
  };
  /** A parcel of `demo` to SG (LMX) that the carrier accepted. */
  async function registered(i: number): Promise<string> {
    const reply = await createOrder(
      deps,
      { clientId: 'demo', order: sampleParcelOrder({ reference: `R-${i}` }), serviceType: 'LMD', carrier: 'LMX' },
      { commandId: `c-${i}` },
    );
    if (!reply.ok) throw new Error('not created');
    await handleParcelCommand(
      deps,
      reply.trackingNumber,
      () => ({ type: 'RecordCarrierRegistration', data: { partnerTrackingNo: `LMX${i}`, partnerName: 'LMX', now } }),
      {},
    );
    return reply.trackingNumber;
  }
  /** Step 1 alone: the manifest and its list recorded, as a request that then died leaves it. */
  async function recordedOnly(manifestId: string, trackingNumbers: string[]): Promise<void> {
    const lines: ManifestLine[] = trackingNumbers.map((trackingNumber) => ({
      trackingNumber,
      customTrackingNum: 'R',
      serviceType: 'LMD',
      destination: 'SG',
      weight: { value: 1, unit: 'kg' },
      pieces: 1,
      partnerTrackingNo: 'P',
    }));
    await handleCommand(
      eventStore,
      manifestStreamName(manifestId),
      manifestDecider,
      { type: 'RecordManifest', data: { manifestId, clientId: 'demo', carrier: 'LMX', lines, now } },
      { metadata: {}, eventId: randomIds.eventId },
    );
  }
  const types = async (stream: string) => (await eventStore.readStream(stream)).map((e) => e.type);
  return {
    deps,
    projections,
    registered,
    recordedOnly,
    types,
    async close() {
      await eventStore.close();
      await projections.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** A test body run on a rig of its own, closed after it whatever the outcome. */
const withRig = (run: (r: Awaited<ReturnType<typeof rig>>) => Promise<void>) => async () => {
  const r = await rig();
  try {
    await run(r);
  } finally {
    await r.close();
  }
};

test(
  'a manifest recorded without its marks (a crash after recording) is finished by the worker after restart',
  withRig(async (r) => {
    const parcels = [await r.registered(1), await r.registered(2)];
    await r.recordedOnly('MFCRASHED', parcels);
    expect(await r.projections.manifests.getForClient('demo', 'MFCRASHED')).toBeNull();
    expect(await r.projections.parcels.openForManifest('demo', 'LMX', 10)).toHaveLength(2);

    const worker = startManifestWorker({ ...r.deps, manifests: r.projections.manifests, pollIntervalMs: 20 });
    await worker.caughtUp();
    await worker.stop();

    for (const tn of parcels) {
      expect(await r.types(`parcel-${tn}`)).toContain('ParcelManifested.v1');
      expect((await r.projections.parcels.get(tn))?.manifestId).toBe('MFCRASHED');
    }
    expect(await r.types(manifestStreamName('MFCRASHED'))).toEqual(['ManifestRecorded.v1', 'ManifestCompleted.v1']);
    const stored = await r.projections.manifests.getForClient('demo', 'MFCRASHED');
    expect(stored?.parcels.map((p) => p.trackingNumber)).toEqual(parcels);
    expect(await r.projections.parcels.openForManifest('demo', 'LMX', 10)).toEqual([]);

    // Run again (a second worker, a redelivery): nothing more is recorded.
    await finishManifest(r.deps, 'MFCRASHED', {});
    expect(await r.types(manifestStreamName('MFCRASHED'))).toEqual(['ManifestRecorded.v1', 'ManifestCompleted.v1']);
    for (const tn of parcels)
      expect((await r.types(`parcel-${tn}`)).filter((t) => t === 'ParcelManifested.v1')).toHaveLength(1);
  }),
);

test(
  "the command's handler and the worker finishing one manifest at once (the distributed stack's race): one completion stands, both answer it",
  withRig(async (r) => {
    const parcels = [await r.registered(1), await r.registered(2)];
    await r.recordedOnly('MFRACE', parcels);
    // Each finisher on a clock of its own, as two processes are: their completions differ in time.
    let tick = 0;
    const clocked = () => ({ ...r.deps, clock: { now: () => new Date(now.getTime() + ++tick) } });
    const [a, b] = await Promise.all([
      finishManifest(clocked(), 'MFRACE', { by: 'handler' }),
      finishManifest(clocked(), 'MFRACE', { by: 'worker' }),
    ]);
    expect(a).toEqual(b);
    expect(a?.parcels.map((p) => p.trackingNumber)).toEqual(parcels);
    expect(await r.types(manifestStreamName('MFRACE'))).toEqual(['ManifestRecorded.v1', 'ManifestCompleted.v1']);
  }),
);

test(
  'two manifests listing the same parcel: the parcel decider lets only the first hold it',
  withRig(async (r) => {
    const [shared, own] = [await r.registered(1), await r.registered(2)];
    await r.recordedOnly('MFFIRST', [shared]);
    await r.recordedOnly('MFSECOND', [shared, own]);
    await Promise.all([finishManifest(r.deps, 'MFFIRST', {}), finishManifest(r.deps, 'MFSECOND', {})]);
    const first = await r.projections.manifests.getForClient('demo', 'MFFIRST');
    const second = await r.projections.manifests.getForClient('demo', 'MFSECOND');
    const holders = [first, second].filter((m) => m?.parcels.some((p) => p.trackingNumber === shared));
    expect(holders).toHaveLength(1);
    expect(second?.parcels.map((p) => p.trackingNumber)).toContain(own);
    expect((await r.types(`parcel-${shared}`)).filter((t) => t === 'ParcelManifested.v1')).toHaveLength(1);
  }),
);

test(
  'concurrent create-manifest requests put each parcel on one manifest only',
  withRig(async (r) => {
    const parcels = await Promise.all([1, 2, 3, 4].map((i) => r.registered(i)));
    const replies = await Promise.all(
      ['MFA', 'MFB', 'MFC'].map((manifestId) =>
        createManifest(r.deps, { clientId: 'demo', carrier: 'LMX', manifestId }, `cmd-${manifestId}`),
      ),
    );
    const held = replies.flatMap((reply) => (reply.ok ? reply.manifest.parcels.map((p) => p.trackingNumber) : []));
    expect([...held].sort()).toEqual([...parcels].sort());
    expect(await createManifest(r.deps, { clientId: 'demo', carrier: 'LMX', manifestId: 'MFD' }, 'cmd-d')).toEqual({
      ok: false,
      error: 'NothingToClose',
    });
  }),
);
