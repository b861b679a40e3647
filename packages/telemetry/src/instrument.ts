/**
 * The decorators of a process's ports, put on in one place and one order: the metrics inside, the
 * span outside, so that a span covers what its metric timed. The composition roots call these
 * instead of composing `tracedX(meteredX(…))` each on its own.
 */
import { createParcelProjector } from '@parcel-logistics/application';
import type { ParcelProjector } from '@parcel-logistics/application';
import type { Bus } from '@parcel-logistics/bus';
import type { EventStore } from '@parcel-logistics/eventstore';
import { tracedBus } from './bus.ts';
import { tracedEventStore } from './eventStore.ts';
import { meteredBus, meteredEventStore } from './metered.ts';
import type { Metrics } from './metrics.ts';
import { tracedProjector } from './projector.ts';

/** The bus, metered and traced; `system` names the transport in its spans (`kafka`, `in-process`). */
export const instrumentBus = (bus: Bus, metrics: Metrics, system: string): Bus =>
  tracedBus(meteredBus(bus, metrics), system);

/** The event store, metered and traced. */
export const instrumentEventStore = (store: EventStore, metrics: Metrics): EventStore =>
  tracedEventStore(meteredEventStore(store, metrics));

/**
 * A process that appends to parcel streams (order, tracking, the embedded one): its bus and event
 * store instrumented, and the parcel projector reading through that store, traced.
 */
export function instrumentParcelStreams(
  metrics: Metrics,
  ports: {
    bus: Bus;
    system: string;
    eventStore: EventStore;
    views: Parameters<typeof createParcelProjector>[0]['views'];
  },
): { bus: Bus; eventStore: EventStore; projector: ParcelProjector } {
  const bus = instrumentBus(ports.bus, metrics, ports.system);
  const eventStore = instrumentEventStore(ports.eventStore, metrics);
  const projector = tracedProjector(createParcelProjector({ eventStore, views: ports.views }));
  return { bus, eventStore, projector };
}
