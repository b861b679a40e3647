/**
 * What downstream messages say of a parcel besides its event: its account, read off its first event
 * (ParcelRegistered), and whether its personal data was erased as of the event. Cached per parcel,
 * fed by the log in order, read off the stream when not cached.
 */
import { parcelStreamName } from '@parcel-logistics/contracts';
import type { ParcelEvent, ParcelRegistered } from '@parcel-logistics/domain';
import type { EventStore, RecordedEvent } from '@parcel-logistics/eventstore';
import type { DownstreamFacts } from './parcelEventMessage.ts';
import { toParcelEvent } from './parcelEventMessage.ts';

const CACHE_SIZE = 10_000;
const ERASED_TYPE = 'PersonalDataErased.v1';

interface Known {
  clientId: string;
  /** The revision of the parcel's `PersonalDataErased`, once known. */
  erasedAt?: number;
}

/**
 * The facts of each event's parcel as of that event: 'erased' from its `PersonalDataErased` on,
 * 'available' before, whenever the event is read (a republished page or a replay gives the same
 * answer). Events come in log order; a parcel not cached is read off its stream, which tells of an
 * erasure at any revision.
 */
export function parcelFacts(eventStore: EventStore) {
  const known = new Map<string, Known>();
  const keep = (trackingNumber: string, entry: Known): void => {
    known.delete(trackingNumber);
    if (known.size >= CACHE_SIZE) known.delete(known.keys().next().value!);
    known.set(trackingNumber, entry);
  };
  async function read(trackingNumber: string): Promise<Known> {
    const events = await eventStore.readStream(parcelStreamName(trackingNumber));
    const first = events[0];
    const clientId = first ? (toParcelEvent(first) as ParcelRegistered).data.clientId : '';
    const erased = events.find((e) => e.type === ERASED_TYPE);
    return erased ? { clientId, erasedAt: erased.revision } : { clientId };
  }
  return {
    async of(recorded: RecordedEvent, event: ParcelEvent): Promise<DownstreamFacts> {
      const trackingNumber = event.data.trackingNumber;
      let entry =
        known.get(trackingNumber) ??
        (event.type === 'ParcelRegistered' ? { clientId: event.data.clientId } : await read(trackingNumber));
      if (event.type === 'PersonalDataErased' && !(entry.erasedAt !== undefined && entry.erasedAt <= recorded.revision))
        entry = { ...entry, erasedAt: recorded.revision };
      keep(trackingNumber, entry);
      const erased = entry.erasedAt !== undefined && entry.erasedAt <= recorded.revision;
      return { clientId: entry.clientId, personalData: erased ? 'erased' : 'available' };
    },
  };
}
