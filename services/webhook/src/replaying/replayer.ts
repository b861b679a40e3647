/**
 * Performs replay requests (issue 16, item 3): reads the store's log from its start to its end, a
 * page at a time, and queues again for the endpoint every event of its account and subscribed
 * types recorded at or after `since`, pending whatever its state, in log order. Progress is stored
 * after each page, so a restarted service resumes the replay where it was. The dispatcher holds
 * the endpoint while its replay runs, so what it is sent stays in log order. An event recorded
 * while the replay runs may go out twice (fan-out and replay): receivers dedupe on `webhook-id`.
 */
import type { Clock } from '@parcel/domain';
import type { EventStore } from '@parcel/eventstore';
import type { QueuedDelivery, ReplayRequest, WebhookDeliveries, WebhookStore } from '@parcel/webhooks';
import type { Logger } from 'pino';
import { subscribes, visibleEvents } from '../delivering/fanOut.ts';

const PAGE = 500;

export interface ReplayDeps {
  eventStore: EventStore;
  endpoints: WebhookStore;
  deliveries: WebhookDeliveries;
  clock: Clock;
  log: Logger;
  pollIntervalMs: number;
}

export function startReplayer(deps: ReplayDeps) {
  const { eventStore, endpoints, deliveries, clock, log } = deps;
  let stopped = false;
  const visible = visibleEvents(eventStore);

  async function perform(request: ReplayRequest): Promise<void> {
    let replay: ReplayRequest = { ...request, status: 'running' };
    await deliveries.updateReplay(replay);
    const endpoint = await endpoints.find(replay.endpointId);
    while (endpoint && !stopped) {
      const page = await eventStore.readAll({ afterPosition: replay.position, limit: PAGE });
      const queued: QueuedDelivery[] = [];
      for (const v of await visible(page)) {
        if (v.clientId !== endpoint.clientId || !subscribes(endpoint, v.type) || new Date(v.recorded.recordedAt) < replay.since) continue;
        queued.push({ endpointId: endpoint.id, eventId: v.recorded.id, position: v.recorded.globalPosition, body: v.body() });
      }
      await deliveries.requeue(queued, clock.now());
      replay = { ...replay, position: page.at(-1)?.globalPosition ?? replay.position, scanned: replay.scanned + page.length, queued: replay.queued + queued.length };
      if (page.length < PAGE) break;
      await deliveries.updateReplay(replay);
    }
    if (stopped) return;
    // A deleted endpoint's replay is done with what it had (dropEndpoint forgets it anyway).
    replay = { ...replay, status: 'done', finishedAt: clock.now() };
    await deliveries.updateReplay(replay);
    log.info({ replayId: replay.id, endpointId: replay.endpointId, scanned: replay.scanned, queued: replay.queued }, 'webhook replay done');
  }

  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> = Promise.resolve();
  const loop = () => {
    running = (async () => {
      for (const replay of await deliveries.openReplays()) if (!stopped) await perform(replay);
    })()
      .catch((err: unknown) => log.error({ err }, 'webhook replay failed; will resume'))
      .finally(() => {
        if (!stopped) timer = setTimeout(loop, deps.pollIntervalMs);
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
