import { serializeEvent } from '@parcel-logistics/contracts';
import type { DomainEvent } from '@parcel-logistics/domain';
import type { EventToAppend } from '@parcel-logistics/eventstore';

export interface EventWithId<E extends DomainEvent = DomainEvent> {
  event: E;
  eventId: string;
}

export function toAppend({ event, eventId }: EventWithId, metadata: Record<string, unknown>): EventToAppend {
  const stored = serializeEvent(event);
  return { id: eventId, type: stored.type, data: stored.data, metadata };
}
