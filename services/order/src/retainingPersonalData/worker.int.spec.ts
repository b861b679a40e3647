/** The retention sweep on the embedded adapters, as two instances of the order service on one store. */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createParcelProjector, handleParcelCommand, randomIds } from '@parcel-logistics/application';
import { RETENTION_SWEEP_STREAM_PREFIX, RetentionSweepEventTypes } from '@parcel-logistics/contracts';
import { sampleParcelOrder } from '@parcel-logistics/domain/testing';
import type { EventStore, RecordedEvent } from '@parcel-logistics/eventstore';
import { createSqliteEventStore } from '@parcel-logistics/eventstore-sqlite';
import { createSqliteProjectionStore } from '@parcel-logistics/projections-sqlite';
import { createOrder } from '../creatingOrder/handler.ts';
import { sweepRetention } from './worker.ts';

const DAY_MS = 24 * 60 * 60 * 1000;

async function readAll(store: EventStore): Promise<RecordedEvent[]> {
  const events: RecordedEvent[] = [];
  for (let page = await store.readAll({ limit: 500 }); page.length > 0;) {
    events.push(...page);
    page = await store.readAll({ afterPosition: page.at(-1)!.globalPosition, limit: 500 });
  }
  return events;
}

/** One instance's connections to the store in `dir` (its own to the one event store and the one views file), on `clock`. */
function openStores(dir: string, clock: { now: () => Date }) {
  const eventStore = createSqliteEventStore({ file: path.join(dir, 'events.db'), durability: 'normal' });
  const projections = createSqliteProjectionStore({ file: path.join(dir, 'views.db') });
  const projector = createParcelProjector({ eventStore, views: projections.parcels });
  return {
    projections,
    deps: { eventStore, projector, views: projections.parcels, clock, ids: randomIds },
    close: async () => (await eventStore.close(), await projections.close()),
  };
}

/** `count` parcels of `demo`, their references and command ids numbered after the prefixes; their tracking numbers. */
async function createParcels(
  deps: Parameters<typeof createOrder>[0],
  count: number,
  prefixes: { reference: string; command: string },
): Promise<string[]> {
  const made: string[] = [];
  for (let i = 0; i < count; i++) {
    const reply = await createOrder(
      deps,
      {
        clientId: 'demo',
        order: sampleParcelOrder({ reference: `${prefixes.reference}-${i}` }),
        serviceType: 'LMD',
        carrier: 'LMX',
      },
      { commandId: `${prefixes.command}-${i}` },
    );
    if (!reply.ok) throw new Error('not created');
    made.push(reply.trackingNumber);
  }
  return made;
}

test('of two instances on one store, one sweeps each slot and the other skips it: each due parcel is erased once', async () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'retention-'));
  let now = Date.parse('2026-11-22T06:00:00Z');
  const clock = { now: () => new Date(now) };
  const shredded: string[] = [];
  // Two instances: each its own connections to the one event store and the one views file.
  const instances = [1, 2].map((n) => {
    const stores = openStores(dir, clock);
    const deps = {
      ...stores.deps,
      personalData: {
        destroyKey: async () => undefined,
        shred: async () => void shredded.push(`instance ${n}`),
        keyedStreams: async function* () {},
      },
      retention: { afterFinalDays: 1, maxDays: 365, sweepMs: 60_000 },
    };
    return { deps, close: stores.close };
  });
  const [first] = instances;
  try {
    const made = await createParcels(first!.deps, 5, { reference: 'R', command: 'c' });
    // The first parcel is delivered a day after its creation.
    await handleParcelCommand(
      first!.deps,
      made[0]!,
      () => ({
        type: 'RecordCarrierEvent',
        data: {
          carrierCode: 'DELIVERED',
          statusCode: 'DL_DL',
          eventTime: new Date(now + DAY_MS),
          location: 'SG',
          remarks: '',
          receiveBy: 'Tan',
          pod: [],
          now: new Date(now + DAY_MS),
        },
      }),
      { commandId: 'delivered' },
    );

    const sweepBoth = () => Promise.all(instances.map(({ deps }) => sweepRetention(deps)));
    // Half a day after the delivery nothing is due; a day and a half after, the delivered parcel is.
    now += DAY_MS + DAY_MS / 2;
    expect((await sweepBoth()).filter(Boolean)).toEqual([expect.objectContaining({ erased: 0, failed: 0 })]);
    now += DAY_MS;
    const sweeps = await sweepBoth();
    expect(sweeps.filter((s) => s === null)).toHaveLength(1);
    expect(sweeps.find(Boolean)).toMatchObject({ erased: 1, failed: 0 });
    expect(await first!.deps.views.get(made[0]!)).toMatchObject({ personalDataErased: true });
    expect(await first!.deps.views.get(made[1]!)).not.toHaveProperty('personalDataErased');
    // The same slot again: already swept, by either.
    expect(await sweepBoth()).toEqual([null, null]);
    // A year after creation every parcel is due.
    now += 365 * DAY_MS;
    expect((await sweepBoth()).filter(Boolean)).toEqual([expect.objectContaining({ erased: 4 })]);

    const events = await readAll(first!.deps.eventStore);
    const erasures = events.filter((e) => e.type === 'PersonalDataErased.v1');
    expect(erasures.map((e) => e.streamName).sort()).toEqual(made.map((tn) => `parcel-${tn}`).sort());
    expect(erasures.every((e) => (e.data as { reason: string }).reason === 'retention')).toBe(true);
    const sweepEvents = events.filter((e) => e.streamName.startsWith(RETENTION_SWEEP_STREAM_PREFIX));
    expect(sweepEvents.map((e) => e.type)).toEqual(
      [0, 1, 2].flatMap(() => [RetentionSweepEventTypes.claimed, RetentionSweepEventTypes.finished]),
    );
    expect(sweepEvents.filter((e) => e.type === RetentionSweepEventTypes.finished).map((e) => e.data)).toEqual([
      { erased: 0, failed: 0 },
      { erased: 1, failed: 0 },
      { erased: 4, failed: 0 },
    ]);
    // Shredded once per sweep that erased something.
    expect(shredded).toHaveLength(2);
  } finally {
    for (const instance of instances) await instance.close();
    rmSync(dir, { recursive: true, force: true });
  }
});

test('an erasure that fails is reported and tried again at the next sweep, and the sweep goes on with the others', async () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'retention-'));
  let now = Date.parse('2026-11-22T06:00:00Z');
  const clock = { now: () => new Date(now) };
  const stores = openStores(dir, clock);
  const { projections } = stores;
  const { eventStore } = stores.deps;
  const failing = new Set<string>();
  const errors: (string | undefined)[] = [];
  const deps = {
    ...stores.deps,
    personalData: {
      destroyKey: async (streamName: string) => {
        if (failing.has(streamName)) throw new Error('key store down');
      },
      shred: async () => undefined,
      keyedStreams: async function* () {},
    },
    retention: { afterFinalDays: 0, maxDays: 1, sweepMs: 60_000 },
    onRetentionError: (_error: unknown, trackingNumber?: string) => void errors.push(trackingNumber),
  };
  try {
    const made = await createParcels(deps, 3, { reference: 'F', command: 'f' });
    // The event is recorded, the key's destruction fails: the view is erased (due no more), the key is not.
    failing.add(`parcel-${made[1]}`);
    now += 2 * DAY_MS;
    const failed = new Set<string>();
    expect(await sweepRetention(deps, failed)).toMatchObject({ erased: 2, failed: 1 });
    expect(errors).toEqual([made[1]]);
    expect([...failed]).toEqual([made[1]]);
    expect(
      await projections.parcels.dueForErasure({ createdBefore: clock.now(), finalBefore: clock.now(), limit: 10 }),
    ).toEqual([]);
    // The next sweep finishes that erasure (destroys the key): no second event, the number is no longer held.
    failing.clear();
    const destroyed: string[] = [];
    const next = {
      ...deps,
      personalData: { ...deps.personalData, destroyKey: async (s: string) => void destroyed.push(s) },
    };
    now += 60_000;
    expect(await sweepRetention(next, failed)).toMatchObject({ erased: 1, failed: 0 });
    expect(destroyed).toEqual([`parcel-${made[1]}`]);
    expect(failed.size).toBe(0);
    const erasures = (await eventStore.readStream(`parcel-${made[1]}`)).filter(
      (e) => e.type === 'PersonalDataErased.v1',
    );
    expect(erasures).toHaveLength(1);
  } finally {
    await stores.close();
    rmSync(dir, { recursive: true, force: true });
  }
});
