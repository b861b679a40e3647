/** A parcel command through the command handler (handleCommand.ts), its events then projected inline. */
import { parcelStreamName } from '@parcel-logistics/contracts';
import { parcelDecider } from '@parcel-logistics/domain';
import type { ParcelCommand, ParcelEvent, ParcelState } from '@parcel-logistics/domain';
import type { EventStore } from '@parcel-logistics/eventstore';
import { handleCommand, readStreamState } from './handleCommand.ts';
import type { Decided, StreamState } from './handleCommand.ts';
import type { Ids } from './ids.ts';
import type { ParcelProjector, PositionedEvent } from './parcelProjector.ts';

export interface ParcelCommandDeps {
  eventStore: EventStore;
  projector: ParcelProjector;
  ids: Ids;
  onProjectionError?: (error: unknown) => void;
}

export interface ParcelCommandOptions {
  /**
   * Runs once the command is decided and before its events are appended, with the parcel's history
   * as read for the decision: work the events stand for (a label rendered) happens first, and
   * nothing is appended if it throws. On a concurrent write it runs again with the new history.
   */
  beforeAppend?: (decided: { state: ParcelState; history: readonly PositionedEvent[] }) => Promise<void>;
}

/** A parcel's stream read and folded by the parcel decider. */
export const readParcel = (
  eventStore: EventStore,
  trackingNumber: string,
): Promise<StreamState<ParcelState, ParcelEvent>> =>
  readStreamState(eventStore, parcelStreamName(trackingNumber), parcelDecider);

/**
 * Events just appended to a parcel's stream, brought into its view before the reply
 * (read-your-writes). They are committed: a failed update is left to the subscription to repair.
 */
export async function projectAppended(
  deps: Pick<ParcelCommandDeps, 'projector' | 'onProjectionError'>,
  trackingNumber: string,
  appended: readonly PositionedEvent[],
): Promise<void> {
  if (appended.length === 0) return;
  await deps.projector.project(trackingNumber, appended).catch((e: unknown) => deps.onProjectionError?.(e));
}

/**
 * Decides against the parcel's current state and appends; a concurrent writer makes it read and
 * decide again. Returns the state the command was decided on and the events appended (possibly none).
 */
export async function handleParcelCommand(
  deps: ParcelCommandDeps,
  trackingNumber: string,
  command: (state: ParcelState) => ParcelCommand,
  metadata: Record<string, unknown>,
  options: ParcelCommandOptions = {},
): Promise<{ state: ParcelState; events: ParcelEvent[] }> {
  const { beforeAppend } = options;
  const decided: Decided<ParcelState, ParcelEvent> = await handleCommand(
    deps.eventStore,
    parcelStreamName(trackingNumber),
    parcelDecider,
    command,
    { metadata, eventId: deps.ids.eventId, ...(beforeAppend ? { beforeAppend } : {}) },
  );
  await projectAppended(deps, trackingNumber, decided.events);
  return { state: decided.state, events: decided.events.map((e) => e.event) };
}
