/** The registration worker on the embedded adapters and the real LMX sandbox. */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createParcelProjector, randomIds } from '@parcel-logistics/application';
import { createCarrierSandbox } from '@parcel-logistics/carrier-sandbox';
import { createLmxClient } from '@parcel-logistics/carriers';
import type { CarrierClient } from '@parcel-logistics/carriers';
import type { EventStore } from '@parcel-logistics/eventstore';
import { createSqliteEventStore } from '@parcel-logistics/eventstore-sqlite';
import { createSqliteProjectionStore } from '@parcel-logistics/projections-sqlite';
import { sampleParcelOrder } from '@parcel-logistics/domain/testing';
import { createOrder } from '../creatingOrder/handler.ts';
import { startRegistrationWorker } from './worker.ts';

test('two workers (two processes) on one store register each parcel once, and both move on', async () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'registration-'));
  const sandbox = createCarrierSandbox({ secret: 's' });
  const { url } = await sandbox.listen(0);
  const eventStore = createSqliteEventStore({ file: path.join(dir, 'events.db'), durability: 'normal' });
  const projections = createSqliteProjectionStore({ file: path.join(dir, 'views.db') });
  const projector = createParcelProjector({ eventStore, views: projections.parcels });
  const clock = { now: () => new Date('2026-11-22T06:00:00Z') };
  const carriers = new Map([['LMX', createLmxClient({ baseUrl: url })]]);
  const deps = { eventStore, projector, clock, ids: randomIds, carriers, pollIntervalMs: 20 };
  try {
    const made: string[] = [];
    for (let i = 0; i < 20; i++) {
      const reply = await createOrder(
        { eventStore, projector, clock, ids: randomIds },
        {
          clientId: 'demo',
          order: sampleParcelOrder({ reference: `R-${i}` }),
          serviceType: 'LMD',
          carrier: 'LMX',
        },
        { commandId: `c-${i}` },
      );
      if (reply.ok) made.push(reply.trackingNumber);
    }
    const workers = [startRegistrationWorker(deps), startRegistrationWorker(deps)];
    await Promise.all(workers.map((w) => w.caughtUp()));
    for (const tn of made) {
      const view = await projections.parcels.get(tn);
      expect(view?.partnerTrackingNo).toMatch(/^LMX/);
      const registered = (await eventStore.readStream(`parcel-${tn}`)).filter((e) => e.type === 'CarrierRegistered.v1');
      expect(registered).toHaveLength(1);
    }
    await Promise.all(workers.map((w) => w.stop()));
  } finally {
    await sandbox.close();
    await eventStore.close();
    await projections.close();
    rmSync(dir, { recursive: true, force: true });
  }
});

/** An embedded store and views, the sandbox, and a count of the appends the worker makes. */
async function rig() {
  const dir = mkdtempSync(path.join(tmpdir(), 'registration-'));
  const sandbox = createCarrierSandbox({ secret: 's' });
  const { url } = await sandbox.listen(0);
  const store = createSqliteEventStore({ file: path.join(dir, 'events.db'), durability: 'normal' });
  const appendCalls: number[] = [];
  // The worker's store: counts each append call and how many streams it carries.
  const eventStore: EventStore = {
    ...store,
    subscribeToAll: (o) => store.subscribeToAll(o),
    append: (r) => (appendCalls.push(1), store.append(r)),
    appendMany: (rs) => (appendCalls.push(rs.length), store.appendMany(rs)),
  };
  const projections = createSqliteProjectionStore({ file: path.join(dir, 'views.db') });
  const projector = createParcelProjector({ eventStore: store, views: projections.parcels });
  const clock = { now: () => new Date('2026-11-22T06:00:00Z') };
  const lmx = createLmxClient({ baseUrl: url });
  /** The shipments of each registration request, by tracking number. */
  const requests: string[][] = [];
  const counting: CarrierClient = {
    ...lmx,
    register: (shipments) => (requests.push(shipments.map((s) => s.trackingNumber)), lmx.register(shipments)),
  };
  const carriers = new Map([['LMX', counting]]);
  const create = async (i: number, instruction = '') => {
    const reply = await createOrder(
      { eventStore: store, projector, clock, ids: randomIds },
      {
        clientId: 'demo',
        order: sampleParcelOrder({ reference: `P-${i}`, instruction }),
        serviceType: 'LMD',
        carrier: 'LMX',
      },
      { commandId: `c-${i}` },
    );
    if (!reply.ok) throw new Error('not created');
    return reply.trackingNumber;
  };
  const deps = { eventStore, projector, clock, ids: randomIds, carriers, pollIntervalMs: 20, retryDelayMs: 20 };
  const done = async () => {
    await sandbox.close();
    await store.close();
    await projections.close();
    rmSync(dir, { recursive: true, force: true });
  };
  return { deps, store, projections, appendCalls, requests, registrations: () => requests.flat().length, create, done };
}

test('a page of new parcels is registered in one carrier request and one append call, and every view carries its partner number', async () => {
  const r = await rig();
  try {
    const made = [];
    for (let i = 0; i < 12; i++) made.push(await r.create(i));
    const worker = startRegistrationWorker(r.deps);
    await worker.caughtUp();
    await worker.stop();
    expect(r.appendCalls).toEqual([12]);
    expect(r.requests).toEqual([made]);
    for (const tn of made) expect((await r.projections.parcels.get(tn))?.partnerTrackingNo).toMatch(/^LMX/);
  } finally {
    await r.done();
  }
});

test('a parcel cancelled further on in the same page is not registered', async () => {
  const r = await rig();
  try {
    const kept = await r.create(1);
    const cancelled = await r.create(2);
    await r.store.append({
      streamName: `parcel-${cancelled}`,
      expectedRevision: 0,
      events: [
        {
          id: 'cancel-2',
          type: 'ParcelCancelled.v1',
          data: { trackingNumber: cancelled, cancelledAt: '2026-11-22T06:01:00.000Z' },
          metadata: {},
        },
      ],
    });
    const worker = startRegistrationWorker(r.deps);
    await worker.caughtUp();
    await worker.stop();
    expect(r.registrations()).toBe(1);
    expect((await r.projections.parcels.get(kept))?.partnerTrackingNo).toMatch(/^LMX/);
    expect((await r.projections.parcels.get(cancelled))?.partnerTrackingNo).toBe('');
  } finally {
    await r.done();
  }
});

test("a parcel that changed after the page was read fails the page's one append whole: each parcel is then recorded alone, once", async () => {
  const r = await rig();
  try {
    const tns = [await r.create(1), await r.create(2), await r.create(3)];
    // A carrier that, while it registers the second parcel, sees a label recorded on it: its stream moves on.
    const lmx = r.deps.carriers.get('LMX')!;
    r.deps.carriers.set('LMX', {
      ...lmx,
      register: async (shipments) => {
        if (shipments.some((s) => s.trackingNumber === tns[1])) {
          await r.store.append({
            streamName: `parcel-${tns[1]}`,
            expectedRevision: 0,
            events: [
              {
                id: 'label-2',
                type: 'LabelGenerated.v1',
                data: {
                  trackingNumber: tns[1],
                  labelType: 'CN23',
                  direction: 'vertical',
                  generatedAt: '2026-11-22T06:01:00.000Z',
                },
                metadata: {},
              },
            ],
          });
        }
        return lmx.register(shipments);
      },
    });
    const worker = startRegistrationWorker(r.deps);
    await worker.caughtUp();
    await worker.stop();
    // The page's append conflicts on the second parcel and commits nothing: each is then recorded alone.
    expect(r.appendCalls).toEqual([3, 1, 1, 1]);
    for (const tn of tns) {
      const registered = (await r.store.readStream(`parcel-${tn}`)).filter((e) => e.type === 'CarrierRegistered.v1');
      expect(registered).toHaveLength(1);
      expect((await r.projections.parcels.get(tn))?.partnerTrackingNo).toMatch(/^LMX/);
    }
  } finally {
    await r.done();
  }
});
