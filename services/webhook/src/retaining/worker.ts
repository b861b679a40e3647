/**
 * Retention of the delivery log: messages delivered or given up on, attempts
 * and finished replays older than `retentionMs` are pruned, at start and then every hour (or every
 * `retentionMs` when shorter). Pending messages are never pruned: they are still to be sent.
 */
import type { Clock } from '@parcel-logistics/domain';
import type { WebhookDeliveries } from '@parcel-logistics/webhooks';
import type { Logger } from 'pino';
import { startPolling } from '../polling.ts';

const HOUR_MS = 60 * 60 * 1000;

export function startPruner(deps: { deliveries: WebhookDeliveries; clock: Clock; log: Logger; retentionMs: number }) {
  const { deliveries, clock, log, retentionMs } = deps;
  return startPolling(
    async () => {
      const counts = await deliveries.prune(new Date(clock.now().getTime() - retentionMs));
      if (counts.messages + counts.attempts + counts.replays > 0) log.info(counts, 'webhook delivery log pruned');
    },
    {
      intervalMs: Math.min(HOUR_MS, retentionMs),
      onError: (err) => log.error({ err }, 'webhook delivery log pruning failed; will try again'),
    },
  );
}
