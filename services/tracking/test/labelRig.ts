/**
 * What the create-label and create-labels specs share: the tracking service's dependencies on the
 * stores a spec opens, at a fixed time, and a label service on the in-process bus that keeps each
 * render it is asked for and answers it with `answer`.
 */
import { createParcelProjector, randomIds } from '@parcel-logistics/application';
import { createInProcessBus } from '@parcel-logistics/bus';
import type { Message } from '@parcel-logistics/bus';
import { Topics } from '@parcel-logistics/contracts';
import type { EventStore } from '@parcel-logistics/eventstore';
import type { ProjectionStore } from '@parcel-logistics/projections';
import { loadReferenceData } from '@parcel-logistics/reference-data';

export const clock = { now: () => new Date('2026-11-22T06:05:09Z') };

/**
 * The slice's dependencies on `store` (read through `eventStore`, the store itself or a wrapper
 * that counts its reads) and `projections`; `close` stops the bus and closes both stores.
 */
export async function labelRig<Payload, Reply>(
  stores: { store: EventStore; eventStore?: EventStore; projections: ProjectionStore },
  answer: (payload: Payload) => Reply,
) {
  const { store, projections } = stores;
  const bus = createInProcessBus();
  const deps = {
    eventStore: stores.eventStore ?? store,
    projector: createParcelProjector({ eventStore: store, views: projections.parcels }),
    bus,
    clock,
    ids: randomIds,
    ref: loadReferenceData(),
  };
  const renders: Payload[] = [];
  await bus.handleRequests(Topics.labelCommands, async (m: Message) => {
    const payload = (m as Message<Payload>).payload;
    renders.push(payload);
    return answer(payload);
  });
  const close = async () => {
    await bus.close();
    await store.close();
    await projections.close();
  };
  return { deps, renders, close };
}
