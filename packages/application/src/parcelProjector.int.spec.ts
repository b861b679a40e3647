import { parcelStreamName } from '@parcel-logistics/contracts';
import type { ParcelEvent } from '@parcel-logistics/domain';
import { sampleRegistered } from '@parcel-logistics/domain/testing';
import { createSqliteEventStore } from '@parcel-logistics/eventstore-sqlite';
import { createSqliteProjectionStore } from '@parcel-logistics/projections-sqlite';
import type { ParcelViewStore } from '@parcel-logistics/projections';
import { createParcelProjector } from './parcelProjector.ts';
import { toAppend } from './toAppend.ts';

const TN = 'PX000000000000001Y';
const registered: ParcelEvent = sampleRegistered(TN, new Date('2026-11-22T06:00:00Z'));

async function setUp() {
  const eventStore = createSqliteEventStore({ file: ':memory:' });
  const projections = createSqliteProjectionStore({ file: ':memory:' });
  const reads: string[] = [];
  const saves: string[] = [];
  const views: ParcelViewStore = {
    ...projections.parcels,
    get: (tn) => (reads.push(tn), projections.parcels.get(tn)),
    save: (view, expected) => (saves.push(view.trackingNumber), projections.parcels.save(view, expected)),
    saveMany: (entries) => (
      saves.push(...entries.map((e) => e.view.trackingNumber)),
      projections.parcels.saveMany(entries)
    ),
  };
  const known = [{ event: registered, eventId: 'e-1', revision: 0 }];
  await eventStore.append({
    streamName: parcelStreamName(TN),
    expectedRevision: 'no_stream',
    events: [toAppend(known[0]!, {})],
  });
  const close = () => Promise.all([eventStore.close(), projections.close()]);
  return { projector: createParcelProjector({ eventStore, views }), eventStore, views, reads, saves, known, close };
}

describe('parcel projector (decisions.md: read-your-writes through the inline projection)', () => {
  it("a new parcel's first events are inserted without reading the view first", async () => {
    const { projector, views, reads, known, close } = await setUp();
    try {
      await projector.project(TN, known);
      expect(reads).toEqual([]);
      expect(await views.get(TN)).toMatchObject({ trackingNumber: TN, revision: 0 });
    } finally {
      await close();
    }
  });

  it('when the subscription inserted the view first, the inline insert yields to it without an error', async () => {
    const { projector, views, reads, known, close } = await setUp();
    try {
      await projector.project(TN); // the repair path: reads the stream, inserts revision 0
      reads.length = 0;
      await projector.project(TN, known);
      expect(reads).toEqual([TN]);
      expect(await views.get(TN)).toMatchObject({ revision: 0 });
    } finally {
      await close();
    }
  });

  it('a page of the log: parcels whose view holds the events are skipped, a parcel behind is brought up to date', async () => {
    const { projector, eventStore, views, reads, saves, known, close } = await setUp();
    try {
      await projector.project(TN, known); // inline: the view holds revision 0
      const TN2 = 'PX000000000000002W';
      const second: ParcelEvent = { ...registered, data: { ...registered.data, trackingNumber: TN2 } } as ParcelEvent;
      await eventStore.append({
        streamName: parcelStreamName(TN2),
        expectedRevision: 'no_stream',
        events: [toAppend({ event: second, eventId: 'e-2' }, {})],
      });
      reads.length = 0;
      saves.length = 0;

      await projector.handleBatch(await eventStore.readAll({ limit: 100 }));
      expect(saves).toEqual([TN2]);
      expect(reads).toEqual([]);
      expect(await views.get(TN2)).toMatchObject({ trackingNumber: TN2, revision: 0 });

      saves.length = 0;
      await projector.handleBatch(await eventStore.readAll({ limit: 100 }));
      expect(saves).toEqual([]);
    } finally {
      await close();
    }
  });

  it('a whole history in hand is saved at the known revision in one write, without a read', async () => {
    const { projector, views, reads, saves, known, close } = await setUp();
    try {
      await projector.project(TN, known);
      reads.length = 0;
      saves.length = 0;
      const cancelled: ParcelEvent = {
        type: 'ParcelCancelled',
        data: { trackingNumber: TN, cancelledAt: new Date('2026-11-22T07:00:00Z') },
      };
      await projector.projectHistories([
        {
          trackingNumber: TN,
          history: [...known, { event: cancelled, eventId: 'e-3', revision: 1 }],
          storedRevision: 0,
        },
      ]);
      expect([reads, saves]).toEqual([[], [TN]]);
      expect(await views.get(TN)).toMatchObject({ revision: 1, status: 'cancelled' });
    } finally {
      await close();
    }
  });

  it('a history in hand whose stored view is not at the known revision takes the general path', async () => {
    const { projector, eventStore, views, saves, known, close } = await setUp();
    try {
      // No view stored yet (the inline update of revision 0 was lost): the one-write save at revision 0 cannot apply.
      const cancelled: ParcelEvent = {
        type: 'ParcelCancelled',
        data: { trackingNumber: TN, cancelledAt: new Date('2026-11-22T07:00:00Z') },
      };
      await eventStore.append({
        streamName: parcelStreamName(TN),
        expectedRevision: 0,
        events: [toAppend({ event: cancelled, eventId: 'e-3' }, {})],
      });
      await projector.projectHistories([
        {
          trackingNumber: TN,
          history: [...known, { event: cancelled, eventId: 'e-3', revision: 1 }],
          storedRevision: 0,
        },
      ]);
      // The save at revision 0 is refused (no view), then the general path inserts the view whole.
      expect(saves).toEqual([TN, TN]);
      expect(await views.get(TN)).toMatchObject({ revision: 1, status: 'cancelled' });
    } finally {
      await close();
    }
  });

  it("the subscription woken by a parcel's commit finds the view that the inline projection saves, and writes nothing", async () => {
    const eventStore = createSqliteEventStore({ file: ':memory:' });
    const projections = createSqliteProjectionStore({ file: ':memory:' });
    const saves: string[] = [];
    const views: ParcelViewStore = {
      ...projections.parcels,
      save: (view, expected) => (saves.push(view.trackingNumber), projections.parcels.save(view, expected)),
    };
    const projector = createParcelProjector({ eventStore, views });
    const subscription = eventStore.subscribeToAll({
      subscriptionId: 'parcel-views',
      handleBatch: (page) => projector.handleBatch(page),
    });
    try {
      await subscription.caughtUp();
      // As a command handler does: the events appended, then their view projected at once.
      const known = [{ event: registered, eventId: 'e-1', revision: 0 }];
      await eventStore.append({
        streamName: parcelStreamName(TN),
        expectedRevision: 'no_stream',
        events: [toAppend(known[0]!, {})],
      });
      await projector.project(TN, known);
      await subscription.caughtUp();
      expect(saves).toEqual([TN]);
      expect(await views.get(TN)).toMatchObject({ trackingNumber: TN, revision: 0 });
    } finally {
      await subscription.stop();
      await Promise.all([eventStore.close(), projections.close()]);
    }
  });
});
