/** The account of a parcel, read off its first event (ParcelRegistered) and cached: it never changes. */
import { parcelStreamName } from '@parcel-logistics/contracts';
import type { ParcelRegistered } from '@parcel-logistics/domain';
import type { EventStore } from '@parcel-logistics/eventstore';
import { toParcelEvent } from './parcelEventMessage.ts';

const OWNER_CACHE_SIZE = 10_000;

export function parcelOwners(eventStore: EventStore) {
  const owners = new Map<string, string>();
  const remember = (trackingNumber: string, clientId: string): void => {
    if (owners.size >= OWNER_CACHE_SIZE) owners.delete(owners.keys().next().value!);
    owners.set(trackingNumber, clientId);
  };
  return {
    remember,
    async ownerOf(trackingNumber: string): Promise<string> {
      const cached = owners.get(trackingNumber);
      if (cached) return cached;
      const [first] = await eventStore.readStream(parcelStreamName(trackingNumber));
      const clientId = first ? (toParcelEvent(first) as ParcelRegistered).data.clientId : '';
      remember(trackingNumber, clientId);
      return clientId;
    },
  };
}
