/**
 * Create-order: the reference claim and the parcel's first event commit together, and the claim's
 * stream may not exist yet, so the store itself guarantees one parcel per (account, reference).
 */
import { DEADLINE_HEADER, deserializeEvent, parcelStreamName, referenceStreamName } from '@parcel-logistics/contracts';
import type { CreateOrder, CreateOrderReply, SettleCreateOrder } from '@parcel-logistics/contracts';
import {
  evolveReference,
  formatSgt,
  initialReferenceState,
  ParcelError,
  parcelDecider,
  referenceDecider,
  ReferenceExistsError,
} from '@parcel-logistics/domain';
import type { Clock, ReferenceClaimed } from '@parcel-logistics/domain';
import type { EventStore } from '@parcel-logistics/eventstore';
import { handleCommands, projectAppended, streamCommand } from '@parcel-logistics/application';
import type { Ids, ParcelProjector } from '@parcel-logistics/application';

export interface CreateOrderDeps {
  eventStore: EventStore;
  projector: ParcelProjector;
  clock: Clock;
  ids: Ids;
  onProjectionError?: (error: unknown) => void;
}

/** A tracking number that happens to exist already is drawn again. */
const MAX_DRAWS = 5;

export async function createOrder(
  deps: CreateOrderDeps,
  command: CreateOrder['payload'],
  meta: { commandId: string; headers?: Record<string, string> },
): Promise<CreateOrderReply> {
  const { eventStore, clock, ids } = deps;
  const now = clock.now();
  const { clientId, order } = command;
  const referenceStream = referenceStreamName(clientId, order.reference);
  const deadline = meta.headers?.[DEADLINE_HEADER];
  if (deadline !== undefined && now.getTime() > Number(deadline))
    return expiredOrReplay(eventStore, referenceStream, meta.commandId);
  const metadata = {
    commandId: meta.commandId,
    clientId,
    ...(meta.headers?.traceparent ? { traceparent: meta.headers.traceparent } : {}),
  };

  for (let draw = 0; draw < MAX_DRAWS; draw++) {
    const trackingNumber = ids.trackingNumber();
    // Both streams are taken not to exist (no read): the append's "no stream" expectations hold the
    // store to it. A conflict reads them and decides again, so the deciders refuse what exists.
    const claim = streamCommand({
      streamName: referenceStream,
      decider: referenceDecider,
      command: { type: 'ClaimReference', data: { clientId, customTrackingNum: order.reference, trackingNumber, now } },
      metadata,
      known: [],
    });
    const register = streamCommand({
      streamName: parcelStreamName(trackingNumber),
      decider: parcelDecider,
      command: { type: 'RegisterParcel', data: { ...command, trackingNumber, commandId: meta.commandId, now } },
      metadata,
      known: [],
    });
    let registered;
    try {
      [, registered] = await handleCommands(eventStore, [claim, register], { eventId: ids.eventId });
    } catch (error) {
      if (error instanceof ReferenceExistsError) return replayOrConflict(eventStore, referenceStream, meta.commandId);
      if (error instanceof ParcelError && error.code === 'ParcelAlreadyRegistered') continue;
      throw error;
    }
    await projectAppended(deps, trackingNumber, registered.events);
    return { ok: true, trackingNumber, createdAt: formatSgt(now) };
  }
  throw new Error('could not draw an unused tracking number');
}

/** The outcome of a create-order whose reply was lost, asked once it is settled (SettleCreateOrder). */
export function settleCreateOrder(
  deps: { eventStore: EventStore },
  query: SettleCreateOrder['payload'],
): Promise<CreateOrderReply> {
  return replayOrConflict(
    deps.eventStore,
    referenceStreamName(query.clientId, query.customTrackingNum),
    query.commandId,
  );
}

/**
 * Past its deadline a command creates nothing. It may still be the redelivery of one that did
 * (its handler died before the reply or the offset commit): then it answers as that one did.
 */
async function expiredOrReplay(
  eventStore: EventStore,
  referenceStream: string,
  commandId: string,
): Promise<CreateOrderReply> {
  const reply = await replayOrConflict(eventStore, referenceStream, commandId);
  return reply.ok ? reply : { ok: false, error: 'Expired' };
}

/** A redelivered command finds its own claim: answer as the first delivery did. */
async function replayOrConflict(
  eventStore: EventStore,
  referenceStream: string,
  commandId: string,
): Promise<CreateOrderReply> {
  const [claim] = await eventStore.readStream(referenceStream);
  if (claim && claim.metadata.commandId === commandId) {
    const state = evolveReference(initialReferenceState(), deserializeEvent(claim) as ReferenceClaimed);
    if (state.status === 'claimed')
      return { ok: true, trackingNumber: state.trackingNumber, createdAt: formatSgt(state.claimedAt) };
  }
  return { ok: false, error: 'ReferenceExists' };
}
