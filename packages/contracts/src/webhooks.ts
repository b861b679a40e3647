/**
 * Webhook endpoints of interface B: the request schemas, the endpoint as answered, and
 * the messages. Fields are declared in the order they are checked; the first issue is the message.
 */
import { z } from 'zod';
import { B } from './messages.ts';
import { queryParam } from './requests.ts';

/**
 * The `parcel.events.v2` types a client may see (internal records such as CarrierRegistered never go
 * out); `PersonalDataErased` tells the client that the parcel's personal data is gone; then the
 * account's events that are no parcel's (docs/webhooks.md).
 */
export const WEBHOOK_EVENT_TYPES = [
  'ParcelRegistered',
  'LabelGenerated',
  'ParcelCancelled',
  'CarrierEventRecorded',
  'PersonalDataErased',
  'OrderImportFinished',
  // End-of-day manifests (docs/bulk.md): each parcel closed, and the manifest itself (not a parcel event).
  'ParcelManifested',
  'ManifestCreated',
] as const;
export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];

/**
 * The webhook body of an account's event that is no parcel's (an import finished): the type, its
 * stored version, the event's id, the account, when, and the event's figures (docs/webhooks.md).
 */
export interface AccountEventMessage {
  type: WebhookEventType;
  schema: string;
  eventId: string;
  clientId: string;
  /** Singapore time, ISO 8601 with offset. */
  time: string;
  data: Record<string, unknown>;
}

export const Webhook = {
  notFound: 'Webhook endpoint not found',
  limit: (max: number) => `Maximum ${max} webhook endpoints per account`,
  /** The destination is a private, loopback or link-local address (checked again after DNS resolution at delivery). */
  urlRefused: 'url refused',
  /** Redeliver: the endpoint has no message of this event id (never had, or retention pruned it). */
  messageNotFound: 'Webhook message not found',
  replayNotFound: 'Webhook replay not found',
  replayBusy: 'A replay of this webhook endpoint is already under way',
  replayTooOld: (days: number) => `since must be within the last ${days} days`,
} as const;

const absent = (input: unknown) => input === undefined || input === null;

const URL_MAX = 2048;
const webhookUrl = z
  .string({ error: (issue) => (absent(issue.input) ? B.require('url') : B.invalid('url')) })
  .refine((s) => s.trim().length > 0, { error: B.require('url'), abort: true })
  .max(URL_MAX, { error: B.invalid('url') })
  .refine(
    (s) =>
      URL.canParse(s) &&
      ['http:', 'https:'].includes(new URL(s).protocol) &&
      new URL(s).username === '' &&
      new URL(s).password === '',
    {
      error: B.invalid('url'),
    },
  )
  .meta({
    description: `Where events are POSTed: an absolute http or https URL without credentials, at most ${URL_MAX} characters.`,
  });

const eventTypes = z
  .array(z.enum(WEBHOOK_EVENT_TYPES, { error: B.invalid('event_types') }), {
    error: (issue) => (absent(issue.input) ? B.require('event_types') : B.invalid('event_types')),
  })
  .min(1, { error: B.require('event_types') })
  .transform((types) => [...new Set(types)])
  .meta({ description: 'The `parcel.events.v2` types to send, at least one.' });

const description = z
  .string({ error: B.invalid('description') })
  .max(256, { error: B.invalid('description') })
  .meta({ description: 'Free text, at most 256 characters.' });

export const endpointId = z
  .string({ error: (issue) => (absent(issue.input) ? B.require('endpoint_id') : B.invalid('endpoint_id')) })
  .refine((s) => s.trim().length > 0, { error: B.require('endpoint_id'), abort: true })
  .max(64, { error: B.invalid('endpoint_id') });

export const CreateWebhookEndpointRequest = z.object({
  url: webhookUrl,
  event_types: eventTypes,
  description: description.optional(),
});

export const UpdateWebhookEndpointRequest = z.object({
  endpoint_id: endpointId,
  url: webhookUrl.optional(),
  event_types: eventTypes.optional(),
  description: description.optional(),
  enabled: z
    .boolean({ error: B.invalid('enabled') })
    .optional()
    .meta({ description: 'false disables the endpoint; true enables it again and clears the disabled reason.' }),
});

export const WebhookEndpointIdRequest = z.object({ endpoint_id: endpointId });
export const WebhookEndpointIdQuery = z.object({
  endpoint_id: queryParam('endpoint_id').meta({ description: 'The endpoint’s id, as create answered it.' }),
});

/** An endpoint as interface B answers it: never its secret, except once in the create answer. */
export const WebhookEndpointView = z
  .strictObject({
    endpoint_id: z.string(),
    url: z.string(),
    event_types: z.array(z.enum(WEBHOOK_EVENT_TYPES)),
    description: z.string(),
    enabled: z.boolean(),
    disabled_reason: z.string().meta({ description: 'Why delivery disabled it; empty while enabled.' }),
    created_at: z.string(),
    updated_at: z.string(),
  })
  .meta({ id: 'WebhookEndpoint' });
export type WebhookEndpointView = z.output<typeof WebhookEndpointView>;

export const CreatedWebhookEndpoint = WebhookEndpointView.extend({
  secret: z
    .string()
    .meta({ description: 'The signing secret, `whsec_` plus base64 (Standard Webhooks). Shown only in this answer.' }),
}).meta({ id: 'WebhookEndpointWithSecret' });
