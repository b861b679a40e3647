/**
 * The delivery log of a webhook endpoint over interface B: its messages and its
 * attempts, newest first a page at a time, and redelivery of one message. Every operation first
 * finds the endpoint in the account, so another account's id reads as missing.
 */
import type { Router } from 'express';
import {
  B,
  check,
  CODE_SUCCESS,
  RedeliverWebhookRequest,
  Webhook,
  WEBHOOK_LOG_PAGE,
  WebhookAttemptsQuery,
  WebhookMessagesQuery,
} from '@parcel-logistics/contracts';
import type { WebhookAttemptView, WebhookMessageView } from '@parcel-logistics/contracts';
import { formatSgt } from '@parcel-logistics/domain';
import { TEST_EVENT_POSITION } from '@parcel-logistics/webhooks';
import type {
  DeliveryMessage,
  MessageCursor,
  RecordedAttempt,
  WebhookDeliveries,
  WebhookEndpoint,
  WebhookStore,
} from '@parcel-logistics/webhooks';
import { accountOf } from '../context.ts';
import type { GatewayContext, Mounting } from '../context.ts';
import { failB, sendB } from '../http/interfaces.ts';
import { mount } from '../http/mount.ts';

function messageView(m: DeliveryMessage, endpoint: WebhookEndpoint): WebhookMessageView {
  const body = JSON.parse(m.body) as { type?: string; trackingNumber?: string };
  const pending = m.state === 'pending';
  return {
    event_id: m.eventId,
    event_type: body.type ?? '',
    tracking_num: body.trackingNumber ?? null,
    position: m.position === TEST_EVENT_POSITION ? null : m.position,
    state: pending && !endpoint.enabled ? 'waiting' : m.state,
    attempts: m.attempts,
    next_attempt_at: pending ? formatSgt(m.nextAttemptAt) : null,
    queued_at: formatSgt(m.queuedAt),
    settled_at: m.settledAt ? formatSgt(m.settledAt) : null,
  };
}

const attemptView = (a: RecordedAttempt): WebhookAttemptView => ({
  event_id: a.eventId,
  attempt: a.attempt,
  at: formatSgt(a.at),
  duration_ms: a.durationMs,
  status: a.status,
  answer: a.answer,
  reason: a.reason,
});

/** Cursors are opaque to clients: base64url of the last item's place. */
const encode = (text: string) => Buffer.from(text).toString('base64url');
const decode = (cursor: string) => Buffer.from(cursor, 'base64url').toString();
function messageCursor(cursor: string): MessageCursor | undefined {
  const match = /^(\d{1,16})\.(.+)$/s.exec(decode(cursor));
  return match ? { position: Number(match[1]), eventId: match[2]! } : undefined;
}
function attemptCursor(cursor: string): number | undefined {
  const match = /^\d{1,16}$/.exec(decode(cursor));
  return match ? Number(match[0]) : undefined;
}

/** One more than asked tells whether there is a next page. */
function paged<T>(rows: T[], limit: number, cursorOf: (last: T) => string): { items: T[]; next: string | null } {
  const items = rows.slice(0, limit);
  return { items, next: rows.length > limit ? encode(cursorOf(items.at(-1)!)) : null };
}

/** What the webhook log routes reach: the endpoints, the delivery log, the clock. */
export type InspectingWebhookLogDeps = Mounting & Pick<GatewayContext, 'webhooks' | 'webhookDeliveries' | 'clock'>;

export function inspectingWebhookLog(router: Router, ctx: InspectingWebhookLogDeps): void {
  const store: WebhookStore | undefined = ctx.webhooks;
  const deliveries: WebhookDeliveries | undefined = ctx.webhookDeliveries;
  // Both wirings give the gateway a store and a delivery log; an app built without them answers these paths as unknown.
  if (!store || !deliveries) return;

  mount(router, ctx, 'listWebhookMessages', async (req, res) => {
    const query = check(WebhookMessagesQuery, req.query);
    if (!query.ok) return failB(res, query.message);
    const { endpoint_id, limit = WEBHOOK_LOG_PAGE.default, cursor } = query.value;
    const before = cursor === undefined ? undefined : messageCursor(cursor);
    if (cursor !== undefined && !before) return failB(res, B.invalid('cursor'));
    const endpoint = await store.get(accountOf(res).clientId, endpoint_id);
    if (!endpoint) return failB(res, Webhook.notFound);
    const page = paged(
      await deliveries.messages(endpoint.id, { limit: limit + 1, ...(before ? { before } : {}) }),
      limit,
      (m) => `${m.position}.${m.eventId}`,
    );
    sendB(res, CODE_SUCCESS, B.success, {
      messages: page.items.map((m) => messageView(m, endpoint)),
      next_cursor: page.next,
    });
  });

  mount(router, ctx, 'listWebhookAttempts', async (req, res) => {
    const query = check(WebhookAttemptsQuery, req.query);
    if (!query.ok) return failB(res, query.message);
    const { endpoint_id, event_id, limit = WEBHOOK_LOG_PAGE.default, cursor } = query.value;
    const before = cursor === undefined ? undefined : attemptCursor(cursor);
    if (cursor !== undefined && before === undefined) return failB(res, B.invalid('cursor'));
    const endpoint = await store.get(accountOf(res).clientId, endpoint_id);
    if (!endpoint) return failB(res, Webhook.notFound);
    const rows = await deliveries.attempts(endpoint.id, {
      limit: limit + 1,
      ...(before === undefined ? {} : { before }),
      ...(event_id ? { eventId: event_id } : {}),
    });
    const page = paged(rows, limit, (a) => String(a.seq));
    sendB(res, CODE_SUCCESS, B.success, { attempts: page.items.map(attemptView), next_cursor: page.next });
  });

  mount(router, ctx, 'redeliverWebhookMessage', async (req, res) => {
    const body = check(RedeliverWebhookRequest, req.body);
    if (!body.ok) return failB(res, body.message);
    const endpoint = await store.get(accountOf(res).clientId, body.value.endpoint_id);
    if (!endpoint) return failB(res, Webhook.notFound);
    const outcome = await deliveries.redeliver(endpoint.id, body.value.event_id, ctx.clock.now());
    if (outcome === 'unknown') return failB(res, Webhook.messageNotFound);
    sendB(res, CODE_SUCCESS, B.success, {
      endpoint_id: endpoint.id,
      event_id: body.value.event_id,
      already_pending: outcome === 'pending',
    });
  });
}
