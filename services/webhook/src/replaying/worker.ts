/**
 * Performs replay requests: reads the store's log to its end, a page at a time,
 * from a little before `since` (found by halving the log: `startAfter`), and queues again for the
 * endpoint every event of its account and subscribed types recorded at or after `since`, pending
 * whatever its state, in log order. Progress is stored
 * after each page, so a restarted service resumes the replay where it was. The dispatcher holds
 * the endpoint while its replay runs, so what it is sent stays in log order. An event recorded
 * while the replay runs may go out twice (fan-out and replay): receivers dedupe on `webhook-id`.
 * Of several webhook instances, the one that holds the endpoint's lease (under an owner name of
 * its replayer's own, renewed after each page) performs its replay; another resumes it from the
 * stored progress once that lease expires.
 */
import type { Clock } from '@parcel-logistics/domain';
import type { EventStore } from '@parcel-logistics/eventstore';
import type { QueuedDelivery, ReplayRequest, WebhookDeliveries, WebhookStore } from '@parcel-logistics/webhooks';
import type { Logger } from 'pino';
import { subscribes, visibleEvents } from '../fanningOut/worker.ts';
import { startPolling } from '../polling.ts';

const PAGE = 500;
/**
 * How much earlier than `since` the reading starts. Log order is commit order, and an event's time
 * is taken when it is written: across processes the two may disagree by a transaction's length.
 */
const SKEW_MS = 5 * 60_000;

/**
 * The position a replay reads after: that of the last event recorded before `since` less the skew,
 * found by halving the log (about 2 log2(n) reads of one event), or 0 when the first event is not
 * older than that. The log's times grow with its positions, give or take the skew.
 */
async function startAfter(eventStore: EventStore, since: Date): Promise<number> {
  const bound = since.getTime() - SKEW_MS;
  const firstAfter = async (position: number) => (await eventStore.readAll({ afterPosition: position, limit: 1 }))[0];
  const older = async (position: number) => {
    const event = await firstAfter(position);
    return event !== undefined && Date.parse(event.recordedAt) < bound;
  };
  if (!(await older(0))) return 0;
  // older(low) holds and older(high) does not: double high until it fails, then halve the gap.
  let low = 0;
  let high = 1;
  while (await older(high)) [low, high] = [high, high * 2];
  while (high - low > 1) {
    const middle = Math.floor((low + high) / 2);
    if (await older(middle)) low = middle;
    else high = middle;
  }
  return (await firstAfter(low))!.globalPosition;
}

export interface ReplayDeps {
  eventStore: EventStore;
  endpoints: WebhookStore;
  deliveries: WebhookDeliveries;
  clock: Clock;
  log: Logger;
  pollIntervalMs: number;
  /** This instance's name in the endpoint leases; its replayer claims as `<owner>/replay`, apart from its dispatcher. */
  owner: string;
  leaseMs: number;
}

export function startReplayer(deps: ReplayDeps) {
  const { eventStore, endpoints, deliveries, clock, log } = deps;
  const visible = visibleEvents(eventStore);

  const owner = `${deps.owner}/replay`;
  const claim = (endpointId: string) => {
    const now = clock.now();
    return deliveries.claim(endpointId, owner, now, new Date(now.getTime() + deps.leaseMs));
  };

  async function perform(request: ReplayRequest, stopping: AbortSignal): Promise<void> {
    // Another instance performs it (or drains the endpoint's queue until it sees the replay).
    if (!(await claim(request.endpointId))) return;
    try {
      await performHeld(request, stopping);
    } finally {
      await deliveries.release(request.endpointId, owner);
    }
  }

  async function performHeld(request: ReplayRequest, stopping: AbortSignal): Promise<void> {
    let replay: ReplayRequest = { ...request, status: 'running' };
    // A replay resumed after a crash goes on from its stored position.
    if (replay.position === 0 && replay.scanned === 0)
      replay = { ...replay, position: await startAfter(eventStore, replay.since) };
    await deliveries.updateReplay(replay);
    const endpoint = await endpoints.find(replay.endpointId);
    while (endpoint && !stopping.aborted) {
      const page = await eventStore.readAll({ afterPosition: replay.position, limit: PAGE });
      const queued: QueuedDelivery[] = [];
      for (const v of await visible(page)) {
        if (
          v.clientId !== endpoint.clientId ||
          !subscribes(endpoint, v.type) ||
          new Date(v.recorded.recordedAt) < replay.since
        )
          continue;
        queued.push({
          endpointId: endpoint.id,
          eventId: v.recorded.id,
          position: v.recorded.globalPosition,
          body: v.body(),
        });
      }
      await deliveries.requeue(queued, clock.now());
      replay = {
        ...replay,
        position: page.at(-1)?.globalPosition ?? replay.position,
        scanned: replay.scanned + page.length,
        queued: replay.queued + queued.length,
      };
      if (page.length < PAGE) break;
      await deliveries.updateReplay(replay);
      if (!(await claim(replay.endpointId))) return;
    }
    if (stopping.aborted) return;
    // A deleted endpoint's replay is done with what it had (dropEndpoint forgets it anyway).
    replay = { ...replay, status: 'done', finishedAt: clock.now() };
    await deliveries.updateReplay(replay);
    log.info(
      { replayId: replay.id, endpointId: replay.endpointId, scanned: replay.scanned, queued: replay.queued },
      'webhook replay done',
    );
  }

  return startPolling(
    async (stopping) => {
      for (const replay of await deliveries.openReplays()) if (!stopping.aborted) await perform(replay, stopping);
    },
    { intervalMs: deps.pollIntervalMs, onError: (err) => log.error({ err }, 'webhook replay failed; will resume') },
  );
}
