/**
 * The webhook endpoint operations of interface B, under `/v1/openapi/webhook/`. Like the
 * rest of interface B they are GET for reads and POST for changes, signed, in the B envelope.
 * operations.ts adds the answers every signed operation shares. See docs/webhooks.md.
 */
import { z } from 'zod';
import { B } from '../messages.ts';
import {
  CreatedWebhookEndpoint,
  CreateWebhookEndpointRequest,
  UpdateWebhookEndpointRequest,
  Webhook,
  WebhookEndpointIdQuery,
  WebhookEndpointIdRequest,
  WebhookEndpointView,
} from '../webhooks.ts';
import { business, failB, okB, requiredB, signedB } from './operation.ts';
import type { Example, Operation } from './operation.ts';

/** The endpoint cap of the default configuration (PARCEL_WEBHOOK_MAX_ENDPOINTS). */
export const DEFAULT_WEBHOOK_MAX_ENDPOINTS = 10;

export const WEBHOOK_SAMPLE = {
  endpointId: 'we_4f1c2a9be07d4c55a1e3b2d6',
  unknownEndpointId: 'we_000000000000000000000000',
  secret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw2W3oX6rRZyI=',
  time: '2026-11-22T14:05:09+08:00',
  /** The test event's id in the examples (send-test-event answers it; redeliver asks for it). */
  eventId: '3f0c8e9a-2b1d-4c6e-9a7f-5d2e1b0c4a8f',
  replayId: 'rp_9b2e4c1a7d3f5e8b0a6c2d4e',
} as const;

export const endpointIdErrors = [
  ...requiredB('endpoint_id', 'is not a string, or longer than 64'),
  business(Webhook.notFound, 'the account has no endpoint of this id (another account’s id reads the same)'),
];
/** The example of an endpoint id the account does not have, sent in the query or in the body. */
export const unknownEndpoint = (where: 'query' | 'body'): Example => ({
  name: 'unknown',
  summary: 'An id the account does not have',
  [where]: { endpoint_id: WEBHOOK_SAMPLE.unknownEndpointId },
  response: failB(Webhook.notFound),
});
const urlErrors = [
  ...requiredB(
    'url',
    'is not an absolute http or https URL, carries a user name or password, or is over 2048 characters',
  ),
  business(
    Webhook.urlRefused,
    'url names a private, loopback or link-local IP address, or another that is not public unicast; the service accepts them only when ' +
      'started with `PARCEL_WEBHOOK_ALLOW_PRIVATE=on` (a receiver on your own machine, a private network on purpose)',
  ),
];
const typeErrors = [
  business(B.require('event_types'), 'event_types is missing or an empty array'),
  business(B.invalid('event_types'), 'event_types is not an array of the client-visible `parcel.events.v2` types'),
  business(B.invalid('description'), 'description is not a string, or over 256 characters'),
];

const sampleEndpoint = {
  endpoint_id: WEBHOOK_SAMPLE.endpointId,
  url: 'https://hooks.example.com/parcel',
  event_types: ['ParcelRegistered', 'CarrierEventRecorded'],
  description: 'Order system',
  enabled: true,
  disabled_reason: '',
  created_at: WEBHOOK_SAMPLE.time,
  updated_at: WEBHOOK_SAMPLE.time,
};
const createBody = {
  url: sampleEndpoint.url,
  event_types: sampleEndpoint.event_types,
  description: sampleEndpoint.description,
};

export const WEBHOOK_OPERATIONS: readonly Operation[] = [
  signedB({
    id: 'createWebhookEndpoint',
    method: 'post',
    path: '/v1/openapi/webhook/create-endpoint',
    summary: 'Create a webhook endpoint',
    description:
      'Subscribes a URL to the account’s parcel events of the given types, enabled. The answer holds the endpoint’s signing ' +
      'secret, `whsec_` plus base64 as Standard Webhooks defines it: it is shown only here, never again. An account has at most ' +
      `${DEFAULT_WEBHOOK_MAX_ENDPOINTS} endpoints (PARCEL_WEBHOOK_MAX_ENDPOINTS).`,
    body: CreateWebhookEndpointRequest,
    data: CreatedWebhookEndpoint,
    secretAnswer: true,
    errors: [
      ...urlErrors,
      ...typeErrors,
      business(Webhook.limit(DEFAULT_WEBHOOK_MAX_ENDPOINTS), 'the account has as many endpoints as the cap allows'),
    ],
    examples: [
      {
        name: 'created',
        summary: 'An endpoint for registrations and carrier events',
        body: createBody,
        response: okB({ ...sampleEndpoint, secret: WEBHOOK_SAMPLE.secret }),
      },
      {
        name: 'notHttp',
        summary: 'An ftp URL',
        body: { ...createBody, url: 'ftp://hooks.example.com/parcel' },
        response: failB(B.invalid('url')),
      },
      {
        name: 'unknownType',
        summary: 'An internal record type',
        body: { ...createBody, event_types: ['CarrierRegistered'] },
        response: failB(B.invalid('event_types')),
      },
    ],
  }),
  signedB({
    id: 'listWebhookEndpoints',
    method: 'get',
    path: '/v1/openapi/webhook/list-endpoints',
    summary: 'The account’s webhook endpoints',
    description: 'Every endpoint of the account, oldest first, without secrets.',
    data: z.array(WebhookEndpointView),
    errors: [],
    examples: [{ name: 'one', summary: 'One endpoint', response: okB([sampleEndpoint]) }],
  }),
  signedB({
    id: 'getWebhookEndpoint',
    method: 'get',
    path: '/v1/openapi/webhook/get-endpoint',
    summary: 'One webhook endpoint',
    description: 'The endpoint without its secret; `disabled_reason` says why delivery disabled it.',
    query: WebhookEndpointIdQuery,
    data: WebhookEndpointView,
    errors: endpointIdErrors,
    examples: [
      {
        name: 'found',
        summary: 'The endpoint',
        query: { endpoint_id: WEBHOOK_SAMPLE.endpointId },
        response: okB(sampleEndpoint),
      },
      unknownEndpoint('query'),
    ],
  }),
  signedB({
    id: 'updateWebhookEndpoint',
    method: 'post',
    path: '/v1/openapi/webhook/update-endpoint',
    summary: 'Change a webhook endpoint',
    description:
      'Changes the fields the body names: url, event_types, description, and `enabled` (false disables the endpoint; true ' +
      'enables it again and clears `disabled_reason`). The secret stays.',
    body: UpdateWebhookEndpointRequest,
    data: WebhookEndpointView,
    errors: [
      ...endpointIdErrors,
      ...urlErrors,
      ...typeErrors,
      business(B.invalid('enabled'), 'enabled is not a boolean'),
    ],
    examples: [
      {
        name: 'disabled',
        summary: 'Disabled by its owner',
        body: { endpoint_id: WEBHOOK_SAMPLE.endpointId, enabled: false },
        response: okB({ ...sampleEndpoint, enabled: false }),
      },
      {
        name: 'badEnabled',
        summary: 'enabled as a string',
        body: { endpoint_id: WEBHOOK_SAMPLE.endpointId, enabled: 'no' },
        response: failB(B.invalid('enabled')),
      },
    ],
  }),
  signedB({
    id: 'rotateWebhookSecret',
    method: 'post',
    path: '/v1/openapi/webhook/rotate-secret',
    summary: 'Rotate a webhook endpoint’s signing secret',
    description:
      'Makes a new signing secret, shown only in this answer. The secret it replaces keeps signing alongside it for 24 hours, ' +
      'so each delivery carries both signatures (space-separated in `webhook-signature`) while receivers switch over.',
    body: WebhookEndpointIdRequest,
    data: CreatedWebhookEndpoint,
    secretAnswer: true,
    errors: endpointIdErrors,
    examples: [
      {
        name: 'rotated',
        summary: 'A new secret; the old one signs too for 24 h',
        body: { endpoint_id: WEBHOOK_SAMPLE.endpointId },
        response: okB({ ...sampleEndpoint, secret: WEBHOOK_SAMPLE.secret }),
      },
      unknownEndpoint('body'),
    ],
  }),
  signedB({
    id: 'sendWebhookTestEvent',
    method: 'post',
    path: '/v1/openapi/webhook/send-test-event',
    summary: 'Send a test event to a webhook endpoint',
    description:
      'Queues a `WebhookTest` message for the endpoint: signed, retried and ordered like parcel events (after those already ' +
      'queued for it), sent once the endpoint is enabled. Its body is `{type: "WebhookTest", schema: "WebhookTest.v1", eventId, ' +
      'clientId, endpointId, time}`; `data.event_id` is its `webhook-id`.',
    body: WebhookEndpointIdRequest,
    data: z.strictObject({ endpoint_id: z.string(), event_id: z.string() }),
    errors: endpointIdErrors,
    examples: [
      {
        name: 'queued',
        summary: 'The test event is on its way',
        body: { endpoint_id: WEBHOOK_SAMPLE.endpointId },
        response: okB({ endpoint_id: WEBHOOK_SAMPLE.endpointId, event_id: WEBHOOK_SAMPLE.eventId }),
      },
      unknownEndpoint('body'),
    ],
  }),
  signedB({
    id: 'deleteWebhookEndpoint',
    method: 'post',
    path: '/v1/openapi/webhook/delete-endpoint',
    summary: 'Delete a webhook endpoint',
    description: 'Removes the endpoint; nothing more is sent to it. `data` is the id deleted.',
    body: WebhookEndpointIdRequest,
    data: z.strictObject({ endpoint_id: z.string() }),
    errors: endpointIdErrors,
    examples: [
      {
        name: 'deleted',
        summary: 'The endpoint is gone',
        body: { endpoint_id: WEBHOOK_SAMPLE.endpointId },
        response: okB({ endpoint_id: WEBHOOK_SAMPLE.endpointId }),
      },
      {
        name: 'again',
        summary: 'Deleted before',
        body: { endpoint_id: WEBHOOK_SAMPLE.endpointId },
        response: failB(Webhook.notFound),
      },
    ],
  }),
];
