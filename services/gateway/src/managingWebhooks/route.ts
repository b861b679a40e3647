/** Webhook endpoints over interface B: create (the secret shown once), list, get, update, rotate the secret, send a test event, delete. */
import { randomBytes, randomUUID } from 'node:crypto';
import type { Router } from 'express';
import {
  B,
  check,
  CODE_SUCCESS,
  CreateWebhookEndpointRequest,
  UpdateWebhookEndpointRequest,
  Webhook,
  WebhookEndpointIdQuery,
  WebhookEndpointIdRequest,
} from '@parcel-logistics/contracts';
import type { WebhookEndpointView } from '@parcel-logistics/contracts';
import { formatSgt } from '@parcel-logistics/domain';
import { literalAddress, newSigningSecret, refusedRange, TEST_EVENT_POSITION } from '@parcel-logistics/webhooks';
import type { WebhookEndpoint, WebhookStore } from '@parcel-logistics/webhooks';
import { accountOf } from '../context.ts';
import type { GatewayConfig, GatewayContext, Mounting } from '../context.ts';
import { failB, sendB } from '../http/interfaces.ts';
import { mount } from '../http/mount.ts';

/** The answer's shape: never a secret. */
const viewOf = (e: WebhookEndpoint): WebhookEndpointView => ({
  endpoint_id: e.id,
  url: e.url,
  event_types: e.eventTypes,
  description: e.description,
  enabled: e.enabled,
  disabled_reason: e.disabledReason,
  created_at: formatSgt(e.createdAt),
  updated_at: formatSgt(e.updatedAt),
});

/** After a rotation the old secret keeps signing alongside the new one for 24 h. */
const ROTATION_OVERLAP_MS = 24 * 60 * 60 * 1000;

/**
 * What the webhook endpoint routes reach: the endpoints, the delivery queue (test events), the
 * endpoint settings, the clock.
 */
export interface ManagingWebhooksDeps
  extends Mounting, Pick<GatewayContext, 'webhooks' | 'webhookDeliveries' | 'clock'> {
  config: { webhooks: Pick<GatewayConfig['webhooks'], 'maxEndpoints' | 'allowPrivate'> };
}

export function managingWebhooks(router: Router, ctx: ManagingWebhooksDeps): void {
  const store: WebhookStore | undefined = ctx.webhooks;
  // Both wirings give the gateway a store; an app built without one (tests of other routes) answers these paths as unknown.
  if (!store) return;
  const { maxEndpoints, allowPrivate } = ctx.config.webhooks;
  /** A literal IP of a refused class is refused now; host names are checked after resolution, at delivery. */
  const refused = (url: string) => {
    const address = literalAddress(url);
    return address !== undefined && refusedRange(address, { allowPrivate }) !== undefined;
  };

  mount(router, ctx, 'createWebhookEndpoint', async (req, res) => {
    const body = check(CreateWebhookEndpointRequest, req.body);
    if (!body.ok) return failB(res, body.message);
    if (refused(body.value.url)) return failB(res, Webhook.urlRefused);
    const now = ctx.clock.now();
    const endpoint: WebhookEndpoint = {
      id: `we_${randomBytes(12).toString('hex')}`,
      clientId: accountOf(res).clientId,
      url: body.value.url,
      eventTypes: body.value.event_types,
      description: body.value.description ?? '',
      enabled: true,
      disabledReason: '',
      secrets: [{ secret: newSigningSecret(), expiresAt: null }],
      createdAt: now,
      updatedAt: now,
    };
    if ((await store.create(endpoint, maxEndpoints)) === 'limit') return failB(res, Webhook.limit(maxEndpoints));
    sendB(res, CODE_SUCCESS, B.success, { ...viewOf(endpoint), secret: endpoint.secrets[0]!.secret });
  });

  mount(router, ctx, 'listWebhookEndpoints', async (_req, res) => {
    sendB(res, CODE_SUCCESS, B.success, (await store.list(accountOf(res).clientId)).map(viewOf));
  });

  mount(router, ctx, 'getWebhookEndpoint', async (req, res) => {
    const query = check(WebhookEndpointIdQuery, req.query);
    if (!query.ok) return failB(res, query.message);
    const endpoint = await store.get(accountOf(res).clientId, query.value.endpoint_id);
    if (!endpoint) return failB(res, Webhook.notFound);
    sendB(res, CODE_SUCCESS, B.success, viewOf(endpoint));
  });

  mount(router, ctx, 'updateWebhookEndpoint', async (req, res) => {
    const body = check(UpdateWebhookEndpointRequest, req.body);
    if (!body.ok) return failB(res, body.message);
    const { endpoint_id, url, event_types, description, enabled } = body.value;
    if (url !== undefined && refused(url)) return failB(res, Webhook.urlRefused);
    const found = await store.get(accountOf(res).clientId, endpoint_id);
    if (!found) return failB(res, Webhook.notFound);
    const changed: WebhookEndpoint = {
      ...found,
      url: url ?? found.url,
      eventTypes: event_types ?? found.eventTypes,
      description: description ?? found.description,
      enabled: enabled ?? found.enabled,
      disabledReason: enabled === undefined ? found.disabledReason : '',
      updatedAt: ctx.clock.now(),
    };
    if (!(await store.update(changed))) return failB(res, Webhook.notFound);
    sendB(res, CODE_SUCCESS, B.success, viewOf(changed));
  });

  mount(router, ctx, 'rotateWebhookSecret', async (req, res) => {
    const body = check(WebhookEndpointIdRequest, req.body);
    if (!body.ok) return failB(res, body.message);
    const found = await store.get(accountOf(res).clientId, body.value.endpoint_id);
    if (!found) return failB(res, Webhook.notFound);
    const now = ctx.clock.now();
    const until = new Date(now.getTime() + ROTATION_OVERLAP_MS);
    // Secrets already rotated out keep their own expiry; the current one starts its 24 h now.
    const kept = found.secrets
      .filter((s) => s.expiresAt === null || s.expiresAt > now)
      .map((s) => ({ secret: s.secret, expiresAt: s.expiresAt ?? until }));
    const rotated: WebhookEndpoint = {
      ...found,
      secrets: [{ secret: newSigningSecret(), expiresAt: null }, ...kept],
      updatedAt: now,
    };
    if (!(await store.update(rotated))) return failB(res, Webhook.notFound);
    sendB(res, CODE_SUCCESS, B.success, { ...viewOf(rotated), secret: rotated.secrets[0]!.secret });
  });

  mount(router, ctx, 'sendWebhookTestEvent', async (req, res) => {
    const body = check(WebhookEndpointIdRequest, req.body);
    if (!body.ok) return failB(res, body.message);
    const endpoint = await store.get(accountOf(res).clientId, body.value.endpoint_id);
    if (!endpoint || !ctx.webhookDeliveries) return failB(res, Webhook.notFound);
    const now = ctx.clock.now();
    const eventId = randomUUID();
    const message = {
      type: 'WebhookTest',
      schema: 'WebhookTest.v1',
      eventId,
      clientId: endpoint.clientId,
      endpointId: endpoint.id,
      time: formatSgt(now),
    };
    // Behind every parcel event already queued for the endpoint: a test event has no place in the log.
    await ctx.webhookDeliveries.enqueue(
      [{ endpointId: endpoint.id, eventId, position: TEST_EVENT_POSITION, body: JSON.stringify(message) }],
      now,
    );
    sendB(res, CODE_SUCCESS, B.success, { endpoint_id: endpoint.id, event_id: eventId });
  });

  mount(router, ctx, 'deleteWebhookEndpoint', async (req, res) => {
    const body = check(WebhookEndpointIdRequest, req.body);
    if (!body.ok) return failB(res, body.message);
    if (!(await store.delete(accountOf(res).clientId, body.value.endpoint_id))) return failB(res, Webhook.notFound);
    sendB(res, CODE_SUCCESS, B.success, { endpoint_id: body.value.endpoint_id });
  });
}
