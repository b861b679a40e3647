/** The registration worker on the embedded adapters and the real LMX sandbox. */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createParcelProjector, randomIds } from '@parcel/application';
import { createCarrierSandbox } from '@parcel/carrier-sandbox';
import { createLmxClient } from '@parcel/carriers';
import { createSqliteEventStore } from '@parcel/eventstore';
import { createSqliteProjectionStore } from '@parcel/projections';
import { sampleOrder } from '@parcel/domain/testing';
import { createOrder } from '../creatingOrder/createOrder.ts';
import { startRegistrationWorker } from './registrationWorker.ts';

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
        { clientId: 'demo', order: sampleOrder({ custom_tracking_num: `R-${i}` }), serviceType: 'LMD', carrier: 'LMX', weightUnit: 'kg' },
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
