/**
 * Sends the queued deliveries: each endpoint has its own chain of attempts, one delivery at a time
 * in log order (so in order per parcel), and no endpoint waits for another: a slow or dead one
 * holds up only its own queue. A failed attempt is retried on the schedule; past it the delivery is
 * given up and the queue moves on. An endpoint failing for `disableAfterMs` is disabled, with its reason.
 * Several dispatchers (webhook service instances) share the endpoints: each drains only the queues
 * it holds a lease on, renewed before every attempt and given up when the queue is done or waits,
 * or after a session of `leaseMs` on a queue that never empties, so a busy endpoint does not stay
 * with whichever instance took it first.
 * Every attempt is recorded in the delivery log; a settled message stays there until retention.
 */
import type { Clock } from '@parcel-logistics/domain';
import type { PendingDelivery, WebhookDeliveries, WebhookEndpoint, WebhookStore } from '@parcel-logistics/webhooks';
import type { Logger } from 'pino';
import { startPolling } from '../polling.ts';
import { keptAlive, send } from './send.ts';
import { signature } from './sign.ts';

export interface DeliveryConfig {
  /** Delay before each retry, in order: its length is the number of retries. */
  retryScheduleMs: readonly number[];
  timeoutMs: number;
  disableAfterMs: number;
  allowPrivate: boolean;
  pollIntervalMs: number;
  /** How long a claim on an endpoint's queue lasts; longer than `timeoutMs`, so it outlives the attempt it was renewed for. */
  leaseMs: number;
}

export interface DispatcherDeps {
  endpoints: WebhookStore;
  deliveries: WebhookDeliveries;
  clock: Clock;
  log: Logger;
  config: DeliveryConfig;
  /** The client's account is disabled: its endpoints' queues wait, unsent, until it is enabled again. */
  paused?: (clientId: string) => boolean;
  /** Names this dispatcher in the endpoint leases: unique per process, or stable where one process is all there is. */
  owner: string;
}

export function startDispatcher(deps: DispatcherDeps) {
  const { endpoints, deliveries, clock, log, config, owner } = deps;
  const running = new Map<string, Promise<void>>();
  let stopped = false;
  const connections = keptAlive(config.allowPrivate);

  function headersFor(endpoint: WebhookEndpoint, d: PendingDelivery, now: Date): Record<string, string> {
    const timestamp = Math.floor(now.getTime() / 1000);
    // During a rotation the rotated-out secret signs too, until it expires: both signatures are sent.
    const live = endpoint.secrets.filter((s) => s.expiresAt === null || s.expiresAt > now);
    return {
      'content-type': 'application/json',
      'user-agent': 'parcel-webhooks/1',
      'webhook-id': d.eventId,
      'webhook-timestamp': String(timestamp),
      'webhook-signature': live.map((s) => signature(s.secret, d.eventId, timestamp, d.body)).join(' '),
    };
  }

  /** Holds (or renews) this dispatcher's lease on the endpoint's queue for one more attempt. */
  const claim = (endpointId: string, now: Date) =>
    deliveries.claim(endpointId, owner, now, new Date(now.getTime() + config.leaseMs));
  /** An endpoint whose replay is being queued waits for it, so what it is sent stays in log order. */
  const replaying = async (endpointId: string) =>
    (await deliveries.openReplays()).some((r) => r.endpointId === endpointId);

  async function drain(endpointId: string): Promise<void> {
    try {
      await drainHeld(endpointId);
    } finally {
      await deliveries.release(endpointId, owner);
    }
  }

  async function drainHeld(endpointId: string): Promise<void> {
    const sessionEnds = clock.now().getTime() + config.leaseMs;
    while (!stopped && !(await replaying(endpointId))) {
      const now = clock.now();
      if (now.getTime() >= sessionEnds) return;
      // Another instance drains this queue (or took it over after this one stalled past its lease).
      if (!(await claim(endpointId, now))) return;
      const d = await deliveries.head(endpointId);
      if (!d || d.nextAttemptAt > now) return;
      const endpoint = await endpoints.find(endpointId);
      if (!endpoint) return deliveries.dropEndpoint(endpointId);
      if (!endpoint.enabled || deps.paused?.(endpoint.clientId)) return;
      const attempt = await send(endpoint.url, headersFor(endpoint, d, now), d.body, {
        timeoutMs: config.timeoutMs,
        allowPrivate: config.allowPrivate,
        connections,
      });
      const after = clock.now();
      const at = { endpointId, eventId: d.eventId, attempt: d.attempts + 1 };
      await deliveries.recordAttempt({
        ...at,
        at: now,
        durationMs: after.getTime() - now.getTime(),
        status: attempt.status,
        answer: attempt.answer,
        reason: attempt.outcome === 'delivered' ? '' : attempt.reason,
      });
      if (attempt.outcome === 'delivered') {
        await deliveries.settle(endpointId, d.eventId, 'delivered', at.attempt, after);
        log.debug({ ...at, status: attempt.status }, 'webhook delivered');
        continue;
      }
      const failingSince = d.failingSince ?? now;
      // A change by the owner (enabling it again, a new URL) starts the failing time afresh.
      const counted = Math.max(failingSince.getTime(), endpoint.updatedAt.getTime());
      if (after.getTime() - counted >= config.disableAfterMs) {
        const reason = `failing since ${failingSince.toISOString()}: ${attempt.reason}`;
        await endpoints.update({ ...endpoint, enabled: false, disabledReason: reason, updatedAt: after });
        await deliveries.retryAt(endpointId, d.eventId, d.attempts + 1, after, failingSince);
        log.warn({ ...at, reason }, 'webhook endpoint disabled');
        return;
      }
      const delay = attempt.outcome === 'retry' ? config.retryScheduleMs[d.attempts] : undefined;
      if (delay === undefined) {
        await deliveries.settle(endpointId, d.eventId, 'failed', at.attempt, after);
        log.warn({ ...at, reason: attempt.reason }, 'webhook delivery given up');
        continue;
      }
      await deliveries.retryAt(endpointId, d.eventId, d.attempts + 1, new Date(after.getTime() + delay), failingSince);
      log.info({ ...at, reason: attempt.reason, retryInMs: delay }, 'webhook delivery failed; will retry');
      return;
    }
  }

  async function tick(): Promise<void> {
    for (const endpointId of await deliveries.dueEndpoints(clock.now())) {
      if (running.has(endpointId)) continue;
      const chain = drain(endpointId)
        .catch((err: unknown) => log.error({ err, endpointId }, 'webhook delivery failed unexpectedly; will try again'))
        .finally(() => running.delete(endpointId));
      running.set(endpointId, chain);
    }
  }

  const polling = startPolling(() => tick(), {
    intervalMs: config.pollIntervalMs,
    onError: (err) => log.error({ err }, 'webhook dispatcher poll failed'),
  });

  return {
    /** Looks for due deliveries now rather than at the next poll: called when this process queued some. */
    wake: polling.wake,
    async stop() {
      stopped = true;
      await polling.stop();
      await Promise.all(running.values());
      connections.close();
    },
  };
}
