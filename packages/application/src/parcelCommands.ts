/** Runs a parcel command: read the stream, decide, append with the expected revision, project inline. */
import { deserializeEvent, parcelStreamName } from '@parcel-logistics/contracts';
import { decide, evolve, initialState, isParcelEvent } from '@parcel-logistics/domain';
import type { ParcelCommand, ParcelEvent, ParcelState } from '@parcel-logistics/domain';
import { WrongExpectedRevisionError } from '@parcel-logistics/eventstore';
import type { EventStore } from '@parcel-logistics/eventstore';
import type { Ids } from './ids.ts';
import type { ParcelProjector, PositionedEvent } from './parcelProjector.ts';
import { toAppend } from './toAppend.ts';

const MAX_ATTEMPTS = 10;

async function readParcel(
  eventStore: EventStore,
  trackingNumber: string,
): Promise<{ state: ParcelState; revision: number; history: PositionedEvent[] }> {
  const recorded = await eventStore.readStream(parcelStreamName(trackingNumber));
  let state = initialState();
  const history: PositionedEvent[] = [];
  for (const r of recorded) {
    const event = deserializeEvent(r);
    if (!isParcelEvent(event)) continue;
    state = evolve(state, event);
    history.push({ event, eventId: r.id, revision: r.revision });
  }
  return { state, revision: recorded.length - 1, history };
}

export interface ParcelCommandOptions {
  /**
   * Runs once the command is decided and before its events are appended, with the parcel's history
   * as read for the decision: work the events stand for (a label rendered) happens first, and
   * nothing is appended if it throws. On a concurrent write it runs again with the new history.
   */
  beforeAppend?: (decided: { state: ParcelState; history: readonly PositionedEvent[] }) => Promise<void>;
}

/**
 * Decides against the current state and appends; a concurrent writer makes it read and decide again.
 * Returns the state the command was decided on and the events appended (possibly none).
 */
export async function handleParcelCommand(
  deps: { eventStore: EventStore; projector: ParcelProjector; ids: Ids; onProjectionError?: (error: unknown) => void },
  trackingNumber: string,
  command: (state: ParcelState) => ParcelCommand,
  metadata: Record<string, unknown>,
  options: ParcelCommandOptions = {},
): Promise<{ state: ParcelState; events: ParcelEvent[] }> {
  const { eventStore, projector, ids } = deps;
  for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
    const { state, revision, history } = await readParcel(eventStore, trackingNumber);
    const events = decide(command(state), state);
    if (events.length === 0) return { state, events };
    await options.beforeAppend?.({ state, history });
    const withIds = events.map((event) => ({ event, eventId: ids.eventId() }));
    try {
      await eventStore.append({
        streamName: parcelStreamName(trackingNumber),
        expectedRevision: revision < 0 ? 'no_stream' : revision,
        events: withIds.map((e) => toAppend(e, metadata)),
      });
    } catch (error) {
      if (error instanceof WrongExpectedRevisionError) continue;
      throw error;
    }
    const positioned: PositionedEvent[] = withIds.map((e, i) => ({ ...e, revision: revision + 1 + i }));
    // The events are committed: a failed inline update is left to the subscription to repair.
    await projector.project(trackingNumber, positioned).catch((e: unknown) => deps.onProjectionError?.(e));
    return { state, events };
  }
  throw new Error(`parcel ${trackingNumber}: too many concurrent writers`);
}
