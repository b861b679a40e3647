/**
 * Registers new parcels with carriers that take registrations (the LMX sandbox), from the event
 * store's log with a stored checkpoint: a parcel committed is registered even if the process dies
 * right after. A page of the log is handled at once: the parcels to register and their state come
 * from the events in hand, each carrier is asked for its parcels in one request, the page's results
 * are appended in one call (each stream at the revision it was decided on) and the views updated
 * at known revisions, without reading anything back. A parcel that changed meanwhile (a conflict)
 * takes the careful path alone: read, decide, append. While a carrier is down, each failed attempt
 * is recorded (internal event) and retried with exponential backoff; the page, and so later
 * registrations, wait their turn.
 */
import { deserializeEvent, PARCEL_STREAM_PREFIX, parcelStreamName } from '@parcel-logistics/contracts';
import { foldHistory, handleCommands, handleParcelCommand, readParcel } from '@parcel-logistics/application';
import type { Ids, ParcelProjector, PositionedEvent } from '@parcel-logistics/application';
import type { CarrierClient, RegisterResult, ShipmentToRegister } from '@parcel-logistics/carriers';
import { isParcelEvent, ParcelError, parcelDecider } from '@parcel-logistics/domain';
import type { Clock, ParcelCommand, ParcelState } from '@parcel-logistics/domain';
import { WrongExpectedRevisionError } from '@parcel-logistics/eventstore';
import type { EventStore, RecordedEvent, Subscription } from '@parcel-logistics/eventstore';

export const REGISTRATION_SUBSCRIPTION = 'carrier-registration';

export interface RegistrationDeps {
  eventStore: EventStore;
  projector: ParcelProjector;
  carriers: ReadonlyMap<string, CarrierClient>;
  clock: Clock;
  ids: Ids;
  /** First retry delay; doubles per attempt up to maxRetryDelayMs. */
  retryDelayMs?: number;
  maxRetryDelayMs?: number;
  pollIntervalMs?: number;
  onProjectionError?: (error: unknown) => void;
}

/** A parcel of the page to register: what the carrier needs, and its stream as far as the log tells. */
interface Pending {
  trackingNumber: string;
  client: CarrierClient;
  shipment: ShipmentToRegister;
  metadata: Record<string, unknown>;
  /** Its events in hand, from revision 0. */
  history: PositionedEvent[];
  state: ParcelState;
}

/**
 * The carrier's answer for each parcel, in order: each carrier asked once for all of its parcels
 * (its client splits them into as many requests as its API needs), the carriers side by side.
 */
async function askCarriers(pending: readonly Pending[]): Promise<RegisterResult[]> {
  const results: RegisterResult[] = new Array(pending.length);
  const byClient = new Map<CarrierClient, number[]>();
  for (const [i, p] of pending.entries()) {
    const indexes = byClient.get(p.client);
    if (indexes) indexes.push(i);
    else byClient.set(p.client, [i]);
  }
  await Promise.all(
    [...byClient].map(async ([client, indexes]) => {
      const answers = await client.register(indexes.map((i) => pending[i]!.shipment));
      indexes.forEach((i, k) => (results[i] = answers[k]!));
    }),
  );
  return results;
}

const commandFor = (result: RegisterResult, now: Date): ParcelCommand =>
  result.ok
    ? {
        type: 'RecordCarrierRegistration',
        data: { partnerTrackingNo: result.partnerTrackingNo, partnerName: result.partnerName, now },
      }
    : { type: 'RecordCarrierRegistrationFailure', data: { reason: result.reason, now } };

export function startRegistrationWorker(deps: RegistrationDeps): Subscription {
  const stopping = new AbortController();
  const base = deps.retryDelayMs ?? 1000;
  const max = deps.maxRetryDelayMs ?? 30_000;

  /** The page's parcels that still need a carrier, with their state as the page leaves them. */
  function toRegister(page: readonly RecordedEvent[]): Pending[] {
    const byParcel = new Map<string, Pending>();
    for (const recorded of page) {
      const event = deserializeEvent(recorded);
      if (!isParcelEvent(event)) continue;
      const positioned = { event, eventId: recorded.id, revision: recorded.revision };
      const known = byParcel.get(event.data.trackingNumber);
      if (known) {
        known.history.push(positioned);
        continue;
      }
      if (event.type !== 'ParcelRegistered' || recorded.revision !== 0) continue;
      const { trackingNumber, carrier, order, clientId } = event.data;
      const client = deps.carriers.get(carrier);
      if (!client) continue;
      byParcel.set(trackingNumber, {
        trackingNumber,
        client,
        shipment: {
          trackingNumber,
          carrier,
          recipientCountry: order.recipient.country,
          postalCode: order.recipient.postalCode ?? '',
          recipientName: order.recipient.name,
          instruction: order.instruction ?? '',
        },
        metadata: { causationId: recorded.id, clientId },
        history: [positioned],
        state: parcelDecider.initialState(),
      });
    }
    for (const p of byParcel.values()) p.state = foldHistory(parcelDecider, p.history).state;
    return [...byParcel.values()].filter(waiting);
  }

  /** One parcel the careful way: its stream read, decided afresh, appended, projected. */
  async function recordAlone(p: Pending, command: ParcelCommand): Promise<void> {
    try {
      await handleParcelCommand(deps, p.trackingNumber, () => command, p.metadata);
    } catch (error) {
      // Another process (or an earlier delivery) recorded it first: the carrier gave both the same number.
      if (!(error instanceof ParcelError && error.code === 'AlreadyRegisteredWithCarrier')) throw error;
    }
  }

  /** The parcel's stream as it is now: before asking the carrier again, after a pause (it may have been cancelled or registered meanwhile). */
  async function refresh(p: Pending): Promise<void> {
    ({ history: p.history, state: p.state } = await readParcel(deps.eventStore, p.trackingNumber));
  }

  const waiting = (p: Pending) => p.state.status === 'active' && p.state.partnerTrackingNo === null;

  /** The carrier's answers of one round, recorded: all in one append when nothing changed meanwhile. */
  async function record(round: Pending[], results: RegisterResult[]): Promise<void> {
    const now = deps.clock.now();
    const commands = round.map((p, i) => commandFor(results[i]!, now));
    let decided;
    try {
      // Decided on the events in hand, one attempt: a conflict sends every parcel the careful way.
      decided = await handleCommands(
        deps.eventStore,
        round.map((p, i) => ({
          streamName: parcelStreamName(p.trackingNumber),
          decider: parcelDecider,
          command: commands[i]!,
          metadata: p.metadata,
          known: p.history,
        })),
        { eventId: deps.ids.eventId, maxAttempts: 1 },
      );
    } catch (error) {
      if (!(error instanceof WrongExpectedRevisionError)) throw error;
      for (const [i, p] of round.entries()) await recordAlone(p, commands[i]!);
      return;
    }
    const histories = round.map((p, i) => {
      const before = p.history.at(-1)!.revision;
      p.history.push(...decided[i]!.events);
      p.state = decided[i]!.newState;
      return { trackingNumber: p.trackingNumber, history: [...p.history], storedRevision: before };
    });
    // The events are committed: a failed view update is left to the tracking subscription to repair.
    await deps.projector.projectHistories(histories).catch((e: unknown) => deps.onProjectionError?.(e));
  }

  async function handleBatch(page: readonly RecordedEvent[]): Promise<void> {
    let pending = toRegister(page);
    while (pending.length > 0 && !stopping.signal.aborted) {
      const results = await askCarriers(pending);
      await record(pending, results);
      // Registered, or refused for good: done. A failure that may pass is asked again after a pause.
      const again = pending.filter((_, i) => {
        const result = results[i]!;
        return !result.ok && !result.permanent;
      });
      if (again.length === 0) return;
      const attempts = Math.min(...again.map((p) => (p.state.status === 'empty' ? 1 : p.state.registrationAttempts)));
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, Math.min(max, base * 2 ** (attempts - 1)));
        stopping.signal.addEventListener('abort', () => (clearTimeout(timer), resolve()), { once: true });
      });
      if (stopping.signal.aborted) break;
      await Promise.all(again.map(refresh));
      pending = again.filter(waiting);
    }
    // Stopped mid-retry: the checkpoint must not pass this page, the next start retries it.
    if (pending.length > 0) throw new Error(`registration of ${pending.length} parcels interrupted by stop`);
  }

  const subscription = deps.eventStore.subscribeToAll({
    subscriptionId: REGISTRATION_SUBSCRIPTION,
    streamPrefixes: [PARCEL_STREAM_PREFIX],
    handleBatch,
    ...(deps.pollIntervalMs ? { pollIntervalMs: deps.pollIntervalMs } : {}),
  });
  return {
    caughtUp: () => subscription.caughtUp(),
    async stop() {
      stopping.abort();
      await subscription.stop();
    },
  };
}
