/**
 * The traced bus still keeps every promise of the Bus port: the conformance suite through the
 * decorator. No tracer provider is registered here, so the suite's own `traceparent` headers pass
 * untouched (with one, the decorator writes the producer span's context over them, by design).
 */
import { busConformance } from '@parcel-logistics/bus/conformance';
import { createInProcessBus } from '@parcel-logistics/bus';
import { tracedBus } from './bus.ts';

busConformance('traced in-process', async () => {
  const inner = createInProcessBus({ maxDeliveries: 3, redeliveryDelayMs: 5 });
  return { bus: tracedBus(inner, 'in-process'), cleanup: () => inner.close(), maxDeliveries: 3 };
});
