/**
 * Retention of the delivery log (issue 16, item 3): messages delivered or given up on, attempts
 * and finished replays older than `retentionMs` are pruned, at start and then every hour (or every
 * `retentionMs` when shorter). Pending messages are never pruned: they are still to be sent.
 */
import type { Clock } from '@parcel/domain';
import type { WebhookDeliveries } from '@parcel/webhooks';
import type { Logger } from 'pino';

const HOUR_MS = 60 * 60 * 1000;

export function startPruner(deps: { deliveries: WebhookDeliveries; clock: Clock; log: Logger; retentionMs: number }) {
  const { deliveries, clock, log, retentionMs } = deps;
  let timer: NodeJS.Timeout | undefined;
  let stopped = false;
  let running: Promise<void> = Promise.resolve();
  const prune = async () => {
    const counts = await deliveries.prune(new Date(clock.now().getTime() - retentionMs));
    if (counts.messages + counts.attempts + counts.replays > 0) log.info(counts, 'webhook delivery log pruned');
  };
  const loop = () => {
    running = prune()
      .catch((err: unknown) => log.error({ err }, 'webhook delivery log pruning failed; will try again'))
      .finally(() => {
        if (!stopped) timer = setTimeout(loop, Math.min(HOUR_MS, retentionMs));
      });
  };
  loop();
  return {
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await running;
    },
  };
}
