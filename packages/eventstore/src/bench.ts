/** What the adapters' append benches write: a new parcel's first event, on a stream of its own. */
import { randomUUID } from 'node:crypto';
import type { AppendRequest } from './port.ts';

export const newStreamAppend = (): AppendRequest => ({
  streamName: `parcel-${randomUUID()}`,
  expectedRevision: 'no_stream',
  events: [
    {
      id: randomUUID(),
      type: 'ParcelRegistered.v1',
      data: { weight: 1.2, reference: 'REF-1' },
      metadata: { by: 'bench' },
    },
  ],
});
