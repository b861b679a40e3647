/**
 * Replay of a webhook endpoint over interface B: the gateway records the
 * request in the webhook state, and the webhook service performs it from the event store's log.
 * One replay per endpoint at a time; `since` at most `replayMaxAgeMs` back.
 */
import { randomBytes } from 'node:crypto';
import type { Router } from 'express';
import { B, check, CODE_SUCCESS, ReplayWebhookRequest, Webhook, WebhookReplayQuery } from '@parcel-logistics/contracts';
import type { WebhookReplayView } from '@parcel-logistics/contracts';
import { formatSgt } from '@parcel-logistics/domain';
import type { ReplayRequest, WebhookDeliveries, WebhookStore } from '@parcel-logistics/webhooks';
import { accountOf } from '../context.ts';
import type { GatewayConfig, GatewayContext, Mounting } from '../context.ts';
import { failB, sendB } from '../http/interfaces.ts';
import { mount } from '../http/mount.ts';

const DAY_MS = 24 * 60 * 60 * 1000;

const viewOf = (r: ReplayRequest): WebhookReplayView => ({
  replay_id: r.id,
  endpoint_id: r.endpointId,
  since: formatSgt(r.since),
  requested_at: formatSgt(r.requestedAt),
  status: r.status,
  scanned: r.scanned,
  queued: r.queued,
  finished_at: r.finishedAt ? formatSgt(r.finishedAt) : null,
});

/**
 * What the replay routes reach: the endpoints, the delivery log, how far back a replay may start,
 * the clock.
 */
export interface ReplayingWebhooksDeps
  extends Mounting, Pick<GatewayContext, 'webhooks' | 'webhookDeliveries' | 'clock'> {
  config: { webhooks: Pick<GatewayConfig['webhooks'], 'replayMaxAgeMs'> };
}

export function replayingWebhooks(router: Router, ctx: ReplayingWebhooksDeps): void {
  const store: WebhookStore | undefined = ctx.webhooks;
  const deliveries: WebhookDeliveries | undefined = ctx.webhookDeliveries;
  if (!store || !deliveries) return;
  const { replayMaxAgeMs } = ctx.config.webhooks;

  mount(router, ctx, 'replayWebhookEndpoint', async (req, res) => {
    const body = check(ReplayWebhookRequest, req.body);
    if (!body.ok) return failB(res, body.message);
    const endpoint = await store.get(accountOf(res).clientId, body.value.endpoint_id);
    if (!endpoint) return failB(res, Webhook.notFound);
    const now = ctx.clock.now();
    if (now.getTime() - body.value.since.getTime() > replayMaxAgeMs)
      return failB(res, Webhook.replayTooOld(Math.floor(replayMaxAgeMs / DAY_MS)));
    const replay: ReplayRequest = {
      id: `rp_${randomBytes(12).toString('hex')}`,
      endpointId: endpoint.id,
      since: body.value.since,
      requestedAt: now,
      status: 'requested',
      position: 0,
      scanned: 0,
      queued: 0,
      finishedAt: null,
    };
    if ((await deliveries.requestReplay(replay)) === 'busy') return failB(res, Webhook.replayBusy);
    sendB(res, CODE_SUCCESS, B.success, viewOf(replay));
  });

  mount(router, ctx, 'getWebhookReplay', async (req, res) => {
    const query = check(WebhookReplayQuery, req.query);
    if (!query.ok) return failB(res, query.message);
    const endpoint = await store.get(accountOf(res).clientId, query.value.endpoint_id);
    if (!endpoint) return failB(res, Webhook.notFound);
    const replay = await deliveries.getReplay(endpoint.id, query.value.replay_id);
    if (!replay) return failB(res, Webhook.replayNotFound);
    sendB(res, CODE_SUCCESS, B.success, viewOf(replay));
  });
}
