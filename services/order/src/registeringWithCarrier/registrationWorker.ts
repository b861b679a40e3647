/**
 * Registers new parcels with carriers that take registrations (the LMX sandbox), from the event
 * store's log with a stored checkpoint: a parcel committed is registered even if the process dies
 * right after. While a carrier is down, each failed attempt is recorded (internal event) and
 * retried with exponential backoff; later registrations wait their turn, in commit order.
 */
import { deserializeEvent, PARCEL_STREAM_PREFIX } from '@parcel/contracts';
import { handleParcelCommand, readParcel } from '@parcel/application';
import type { Ids, ParcelProjector } from '@parcel/application';
import type { CarrierClient } from '@parcel/carriers';
import { ParcelError } from '@parcel/domain';
import type { Clock } from '@parcel/domain';
import type { EventStore, RecordedEvent, Subscription } from '@parcel/eventstore';

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

export function startRegistrationWorker(deps: RegistrationDeps): Subscription {
  const stopping = new AbortController();
  const base = deps.retryDelayMs ?? 1000;
  const max = deps.maxRetryDelayMs ?? 30_000;

  async function register(recorded: RecordedEvent): Promise<void> {
    if (!recorded.streamName.startsWith(PARCEL_STREAM_PREFIX) || recorded.revision !== 0) return;
    const event = deserializeEvent(recorded);
    if (event.type !== 'ParcelRegistered') return;
    const { trackingNumber, carrier, order } = event.data;
    const client = deps.carriers.get(carrier);
    if (!client) return;
    const metadata = { causationId: recorded.id, clientId: event.data.clientId };

    while (!stopping.signal.aborted) {
      const { state } = await readParcel(deps.eventStore, trackingNumber);
      if (state.status !== 'active' || state.partnerTrackingNo !== null) return;
      const result = await client.register({
        trackingNumber,
        carrier,
        recipientCountry: order.recipient_country,
        postalCode: order.postal_code ?? '',
        recipientName: order.recipient_name,
        instruction: order.instruction ?? '',
      });
      const now = deps.clock.now();
      if (result.ok) {
        const { partnerTrackingNo, partnerName } = result;
        try {
          await handleParcelCommand(deps, trackingNumber, () => ({ type: 'RecordCarrierRegistration', data: { partnerTrackingNo, partnerName, now } }), metadata);
        } catch (error) {
          // Another process (or an earlier delivery) recorded it first: the carrier gave both the same number.
          if (!(error instanceof ParcelError && error.code === 'AlreadyRegisteredWithCarrier')) throw error;
        }
        return;
      }
      await handleParcelCommand(deps, trackingNumber, () => ({ type: 'RecordCarrierRegistrationFailure', data: { reason: result.reason, now } }), metadata);
      if (result.permanent) return;
      const delay = Math.min(max, base * 2 ** state.registrationAttempts);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, delay);
        stopping.signal.addEventListener('abort', () => (clearTimeout(timer), resolve()), { once: true });
      });
    }
    // Stopped mid-retry: the checkpoint must not pass this parcel, the next start retries it.
    throw new Error(`registration of ${trackingNumber} interrupted by stop`);
  }

  const subscription = deps.eventStore.subscribeToAll({
    subscriptionId: REGISTRATION_SUBSCRIPTION,
    handler: register,
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
