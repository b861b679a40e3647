/**
 * The delivery log, redelivery and replay operations of interface B, under
 * `/v1/openapi/webhook/` beside the endpoint operations, with their conventions: signed, the B
 * envelope, GET for reads and POST for changes. See docs/webhooks.md.
 */
import { B } from '../messages.ts';
import { Webhook } from '../webhooks.ts';
import {
  RedeliveredWebhookMessage,
  RedeliverWebhookRequest,
  ReplayWebhookRequest,
  WEBHOOK_LOG_PAGE,
  WebhookAttemptsPage,
  WebhookAttemptsQuery,
  WebhookMessagesPage,
  WebhookMessagesQuery,
  WebhookReplayQuery,
  WebhookReplayView,
} from '../webhookLog.ts';
import type { Operation } from './operation.ts';
import { business, failB, okB, requiredB, signedB } from './operation.ts';
import { endpointIdErrors, unknownEndpoint, WEBHOOK_SAMPLE } from './webhookOperations.ts';

/** The replay cap of the default configuration (PARCEL_WEBHOOK_REPLAY_MAX_AGE_MS), in days. */
const DEFAULT_WEBHOOK_REPLAY_MAX_DAYS = 30;

const id = WEBHOOK_SAMPLE.endpointId;
const pageErrors = [
  business(B.invalid('limit'), `limit is not a whole number from 1 to ${WEBHOOK_LOG_PAGE.max}`),
  business(B.invalid('cursor'), 'cursor is not a next_cursor this operation answered'),
];
const sampleMessage = {
  event_id: WEBHOOK_SAMPLE.eventId,
  event_type: 'ParcelRegistered',
  tracking_num: 'PX7K2P9S4W8Y1Q3T55',
  position: 1042,
  state: 'delivered',
  attempts: 3,
  next_attempt_at: null,
  queued_at: WEBHOOK_SAMPLE.time,
  settled_at: '2026-11-22T14:05:45+08:00',
};
const sampleAttempt = {
  event_id: WEBHOOK_SAMPLE.eventId,
  attempt: 1,
  at: WEBHOOK_SAMPLE.time,
  duration_ms: 31,
  status: 503,
  answer: 'not yet',
  reason: 'HTTP 503',
};
const sampleReplay = {
  replay_id: WEBHOOK_SAMPLE.replayId,
  endpoint_id: id,
  since: WEBHOOK_SAMPLE.time,
  requested_at: WEBHOOK_SAMPLE.time,
  status: 'requested',
  scanned: 0,
  queued: 0,
  finished_at: null,
};
const replayErrors = [
  ...requiredB('since', 'is not an ISO 8601 time with seconds and `Z` or an offset'),
  business(
    Webhook.replayTooOld(DEFAULT_WEBHOOK_REPLAY_MAX_DAYS),
    'since is further back than PARCEL_WEBHOOK_REPLAY_MAX_AGE_MS',
  ),
  business(Webhook.replayBusy, 'a replay of the endpoint is requested or running'),
];

export const WEBHOOK_LOG_OPERATIONS: readonly Operation[] = [
  signedB({
    id: 'listWebhookMessages',
    method: 'get',
    path: '/v1/openapi/webhook/list-messages',
    summary: 'The messages of a webhook endpoint',
    description:
      'The endpoint’s messages, newest (latest in the log) first, a page at a time: pending, delivered, failed (given up on) and ' +
      'waiting (pending for a disabled endpoint), with their attempts and next attempt. Delivered and failed messages are kept ' +
      `for PARCEL_WEBHOOK_RETENTION_MS (30 days). \`limit\` defaults to ${WEBHOOK_LOG_PAGE.default}, at most ${WEBHOOK_LOG_PAGE.max}.`,
    query: WebhookMessagesQuery,
    data: WebhookMessagesPage,
    errors: [...endpointIdErrors, ...pageErrors],
    examples: [
      {
        name: 'page',
        summary: 'The newest message',
        query: { endpoint_id: id, limit: '1' },
        response: okB({ messages: [sampleMessage], next_cursor: 'MTA0MS5hYmM' }),
      },
      unknownEndpoint('query'),
      {
        name: 'badLimit',
        summary: 'limit 0',
        query: { endpoint_id: id, limit: '0' },
        response: failB(B.invalid('limit')),
      },
    ],
  }),
  signedB({
    id: 'listWebhookAttempts',
    method: 'get',
    path: '/v1/openapi/webhook/list-attempts',
    summary: 'The delivery attempts of a webhook endpoint',
    description:
      'Every attempt at the endpoint’s messages, newest first, or at one message with `event_id`: when, how long, the HTTP status ' +
      '(null when there was no answer), the first 256 bytes of the answer and why it failed. Kept for PARCEL_WEBHOOK_RETENTION_MS.',
    query: WebhookAttemptsQuery,
    data: WebhookAttemptsPage,
    errors: [
      ...endpointIdErrors,
      business(B.require('event_id'), 'event_id is blank'),
      business(B.invalid('event_id'), 'event_id is longer than 64'),
      ...pageErrors,
    ],
    examples: [
      {
        name: 'page',
        summary: 'A failed attempt',
        query: { endpoint_id: id },
        response: okB({ attempts: [sampleAttempt], next_cursor: null }),
      },
      unknownEndpoint('query'),
      {
        name: 'badCursor',
        summary: 'A cursor no page answered',
        query: { endpoint_id: id, cursor: '!' },
        response: failB(B.invalid('cursor')),
      },
    ],
  }),
  signedB({
    id: 'redeliverWebhookMessage',
    method: 'post',
    path: '/v1/openapi/webhook/redeliver',
    summary: 'Send a webhook message again',
    description:
      'Queues the message again, pending from now with no attempts: it goes out with the same `webhook-id` and a fresh timestamp ' +
      'and signature, in its place in the log order (before messages queued after it that still wait). A message still pending is ' +
      'left as it is: the answer says `already_pending: true` and nothing is queued twice.',
    body: RedeliverWebhookRequest,
    data: RedeliveredWebhookMessage,
    errors: [
      ...endpointIdErrors,
      ...requiredB('event_id', 'is not a string, or longer than 64'),
      business(Webhook.messageNotFound, 'the endpoint has no message of this event id (or retention pruned it)'),
    ],
    examples: [
      {
        name: 'queued',
        summary: 'Queued again',
        body: { endpoint_id: id, event_id: WEBHOOK_SAMPLE.eventId },
        response: okB({ endpoint_id: id, event_id: WEBHOOK_SAMPLE.eventId, already_pending: false }),
      },
      {
        name: 'unknownMessage',
        summary: 'An event id the endpoint has no message of',
        body: { endpoint_id: id, event_id: '00000000-0000-4000-8000-000000000000' },
        response: failB(Webhook.messageNotFound),
      },
      { name: 'noEvent', summary: 'No event id', body: { endpoint_id: id }, response: failB(B.require('event_id')) },
    ],
  }),
  signedB({
    id: 'replayWebhookEndpoint',
    method: 'post',
    path: '/v1/openapi/webhook/replay',
    summary: 'Replay a webhook endpoint’s events since a time',
    description:
      'Asks for every event of the account recorded since `since`, of the types the endpoint subscribes to, to be sent to it again, ' +
      'read from the event store’s log (delivered ones too), in log order: so in order per parcel. The webhook service performs it ' +
      'in the background; get-replay says how far it is. One replay per endpoint at a time; `since` at most ' +
      `${DEFAULT_WEBHOOK_REPLAY_MAX_DAYS} days back (PARCEL_WEBHOOK_REPLAY_MAX_AGE_MS). The endpoint’s deliveries wait while its replay is queued.`,
    body: ReplayWebhookRequest,
    data: WebhookReplayView,
    errors: [...endpointIdErrors, ...replayErrors],
    examples: [
      {
        name: 'requested',
        summary: 'Everything since a time',
        body: { endpoint_id: id, since: WEBHOOK_SAMPLE.time },
        response: okB(sampleReplay),
      },
      {
        name: 'noZone',
        summary: 'A time without a zone',
        body: { endpoint_id: id, since: '2026-11-22T14:05:09' },
        response: failB(B.invalid('since')),
      },
      {
        name: 'tooOld',
        summary: 'Further back than the cap',
        body: { endpoint_id: id, since: '2026-09-01T00:00:00+08:00' },
        response: failB(Webhook.replayTooOld(DEFAULT_WEBHOOK_REPLAY_MAX_DAYS)),
      },
    ],
  }),
  signedB({
    id: 'getWebhookReplay',
    method: 'get',
    path: '/v1/openapi/webhook/get-replay',
    summary: 'How far a webhook replay is',
    description:
      'The replay’s status (`requested`, `running`, `done`), the events of the log read so far and how many were queued again.',
    query: WebhookReplayQuery,
    data: WebhookReplayView,
    errors: [
      ...endpointIdErrors,
      ...requiredB('replay_id', 'is longer than 64'),
      business(Webhook.replayNotFound, 'the endpoint has no replay of this id'),
    ],
    examples: [
      {
        name: 'found',
        summary: 'The replay',
        query: { endpoint_id: id, replay_id: WEBHOOK_SAMPLE.replayId },
        response: okB(sampleReplay),
      },
      {
        name: 'unknown',
        summary: 'A replay id the endpoint does not have',
        query: { endpoint_id: id, replay_id: 'rp_000000000000000000000000' },
        response: failB(Webhook.replayNotFound),
      },
    ],
  }),
];
