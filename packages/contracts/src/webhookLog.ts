/**
 * The delivery log, redelivery and replay of webhook endpoints over interface B:
 * the request schemas and the answers. Like the endpoint operations, unknown fields are ignored
 * and the first issue is the message.
 */
import { z } from 'zod';
import { B } from './messages.ts';
import { queryParam } from './requests.ts';
import { endpointId } from './webhooks.ts';

/** The page size of list-messages and list-attempts: `limit` defaults to 20, at most 100. */
export const WEBHOOK_LOG_PAGE = { default: 20, max: 100 } as const;

const endpointIdParam = queryParam('endpoint_id').meta({ description: 'The endpoint’s id, as create answered it.' });
const limit = z
  .string({ error: B.invalid('limit') })
  .regex(/^\d{1,3}$/, { error: B.invalid('limit') })
  .transform(Number)
  .refine((n) => n >= 1 && n <= WEBHOOK_LOG_PAGE.max, { error: B.invalid('limit') })
  .optional()
  .meta({ description: `How many to answer, 1 to ${WEBHOOK_LOG_PAGE.max}; ${WEBHOOK_LOG_PAGE.default} when omitted.` });
const cursor = z
  .string({ error: B.invalid('cursor') })
  .max(256, { error: B.invalid('cursor') })
  .optional()
  .meta({ description: 'The `next_cursor` of the page before; omitted, the newest page.' });

const absent = (input: unknown) => input === undefined || input === null;
const eventId = z
  .string({ error: (issue) => (absent(issue.input) ? B.require('event_id') : B.invalid('event_id')) })
  .refine((s) => s.trim().length > 0, { error: B.require('event_id'), abort: true })
  .max(64, { error: B.invalid('event_id') })
  .meta({ description: 'The message’s event id: its `webhook-id`.' });

/** ISO 8601 with seconds and `Z` or an offset: a time without a zone is refused, as carrier event times are. */
const ZONED_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,9})?(Z|[+-]\d{2}:\d{2})$/;
const since = z
  .string({ error: (issue) => (absent(issue.input) ? B.require('since') : B.invalid('since')) })
  .refine((s) => s.trim().length > 0, { error: B.require('since'), abort: true })
  .refine((s) => ZONED_TIME.test(s) && !Number.isNaN(Date.parse(s)), { error: B.invalid('since') })
  .transform((s) => new Date(s))
  .meta({ description: 'ISO 8601 with seconds and `Z` or an offset: `2026-11-22T14:05:09+08:00`.' });

export const WebhookMessagesQuery = z.object({ endpoint_id: endpointIdParam, limit, cursor });
export const WebhookAttemptsQuery = z.object({
  endpoint_id: endpointIdParam,
  event_id: queryParam('event_id').optional().meta({ description: 'Only the attempts at this message.' }),
  limit,
  cursor,
});
export const RedeliverWebhookRequest = z.object({ endpoint_id: endpointId, event_id: eventId });
export const ReplayWebhookRequest = z.object({ endpoint_id: endpointId, since });
export const WebhookReplayQuery = z.object({
  endpoint_id: endpointIdParam,
  replay_id: queryParam('replay_id').meta({ description: 'The id replay answered.' }),
});

const time = z.string().meta({ description: 'Singapore time, like every B answer.' });
const nextCursor = z
  .string()
  .nullable()
  .meta({ description: 'Pass it as `cursor` for the next (older) page; null on the last page.' });

export const WebhookMessageView = z
  .strictObject({
    event_id: z.string().meta({ description: 'The `webhook-id` of every attempt and redelivery.' }),
    event_type: z.string().meta({ description: 'The message’s `type`: a `parcel.events.v2` type, or `WebhookTest`.' }),
    tracking_num: z.string().nullable(),
    position: z
      .number()
      .int()
      .nullable()
      .meta({ description: 'The event’s position in the log (the order of delivery); null for a test event.' }),
    state: z.enum(['pending', 'delivered', 'failed', 'waiting']).meta({
      description:
        '`failed`: given up on after the retry schedule (or not retried); `waiting`: pending for a disabled endpoint.',
    }),
    attempts: z.number().int().meta({ description: 'Attempts since it was last queued.' }),
    next_attempt_at: time.nullable().meta({ description: 'When it is tried next; null once settled.' }),
    queued_at: time,
    settled_at: time.nullable().meta({ description: 'When it was delivered or given up on; null while pending.' }),
  })
  .meta({ id: 'WebhookMessage' });

export const WebhookAttemptView = z
  .strictObject({
    event_id: z.string(),
    attempt: z.number().int().meta({ description: '1 for the first attempt since the message was last queued.' }),
    at: time,
    duration_ms: z.number().int(),
    status: z.number().int().nullable().meta({
      description: 'The HTTP status answered; null when none was (network error, timeout, refused destination).',
    }),
    answer: z.string().meta({ description: 'The first 256 bytes of the answer’s body, as text.' }),
    reason: z.string().meta({
      description:
        'Why it failed (`HTTP 503`, `no answer within 10000 ms`, `network error: …`, `refused destination: …`); empty when delivered.',
    }),
  })
  .meta({ id: 'WebhookAttempt' });

export const WebhookMessagesPage = z
  .strictObject({ messages: z.array(WebhookMessageView), next_cursor: nextCursor })
  .meta({ id: 'WebhookMessagesPage' });
export const WebhookAttemptsPage = z
  .strictObject({ attempts: z.array(WebhookAttemptView), next_cursor: nextCursor })
  .meta({ id: 'WebhookAttemptsPage' });

export const RedeliveredWebhookMessage = z
  .strictObject({
    endpoint_id: z.string(),
    event_id: z.string(),
    already_pending: z
      .boolean()
      .meta({ description: 'true: it was still waiting to go out, and nothing was queued again.' }),
  })
  .meta({ id: 'RedeliveredWebhookMessage' });

export const WebhookReplayView = z
  .strictObject({
    replay_id: z.string(),
    endpoint_id: z.string(),
    since: time,
    requested_at: time,
    status: z.enum(['requested', 'running', 'done']),
    scanned: z.number().int().meta({ description: 'Events of the log read so far.' }),
    queued: z.number().int().meta({ description: 'Of those, the events queued again for the endpoint.' }),
    finished_at: time.nullable(),
  })
  .meta({ id: 'WebhookReplay' });
export type WebhookReplayView = z.output<typeof WebhookReplayView>;
export type WebhookMessageView = z.output<typeof WebhookMessageView>;
export type WebhookAttemptView = z.output<typeof WebhookAttemptView>;
