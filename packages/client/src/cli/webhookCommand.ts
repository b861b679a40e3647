/** `parcelctl webhook …`: the account's webhook endpoints, their delivery log and replay, one sub-command per operation. */
import type { Command, Context } from './command.ts';
import type { WebhookPage } from '../interfaceB.ts';
import { report, UsageError } from './output.ts';

const SUBCOMMANDS = [
  'list',
  'get',
  'create',
  'enable',
  'disable',
  'rotate',
  'test',
  'delete',
  'messages',
  'attempts',
  'redeliver',
  'replay',
  'replay-status',
] as const;
type Subcommand = (typeof SUBCOMMANDS)[number];

function endpointId(args: string[], sub: string): string {
  const [only, ...more] = args;
  if (only === undefined || more.length > 0) throw new UsageError(`webhook ${sub} takes exactly one endpoint id`);
  return only;
}

/** An endpoint id and one more argument (an event id, a time, a replay id). */
function endpointAnd(args: string[], sub: string, what: string): [string, string] {
  const [id, other, ...more] = args;
  if (id === undefined || other === undefined || more.length > 0)
    throw new UsageError(`webhook ${sub} takes an endpoint id and ${what}`);
  return [id, other];
}

function page(context: Context): WebhookPage {
  const { limit, cursor } = context.options;
  if (limit !== undefined && !/^\d+$/.test(limit)) throw new UsageError('--limit takes a whole number');
  return { ...(limit === undefined ? {} : { limit: Number(limit) }), ...(cursor === undefined ? {} : { cursor }) };
}

async function run(context: Context): Promise<number> {
  const [sub, ...args] = context.args;
  if (!SUBCOMMANDS.includes(sub as Subcommand)) throw new UsageError(`give one of: webhook ${SUBCOMMANDS.join(', ')}`);
  const b = context.b();
  const key = { idempotencyKey: context.options['idempotency-key'] };
  switch (sub as Subcommand) {
    case 'list':
      if (args.length > 0) throw new UsageError('webhook list takes no arguments');
      return report(await b.listWebhookEndpoints());
    case 'get':
      return report(await b.getWebhookEndpoint(endpointId(args, sub!)));
    case 'create': {
      const [url, ...types] = args;
      if (url === undefined || types.length === 0)
        throw new UsageError('webhook create takes a URL and at least one event type');
      const description = context.options.description;
      // The types are checked by the server, which answers `event_types invalid` for an unknown one.
      const eventTypes = types as Parameters<typeof b.createWebhookEndpoint>[0]['event_types'];
      return report(
        await b.createWebhookEndpoint(
          { url, event_types: eventTypes, ...(description === undefined ? {} : { description }) },
          key,
        ),
      );
    }
    case 'enable':
    case 'disable':
      return report(
        await b.updateWebhookEndpoint({ endpoint_id: endpointId(args, sub!), enabled: sub === 'enable' }, key),
      );
    case 'rotate':
      return report(await b.rotateWebhookSecret(endpointId(args, sub!), key));
    case 'test':
      return report(await b.sendWebhookTestEvent(endpointId(args, sub!), key));
    case 'delete':
      return report(await b.deleteWebhookEndpoint(endpointId(args, sub!), key));
    case 'messages':
      return report(await b.listWebhookMessages(endpointId(args, sub!), page(context)));
    case 'attempts': {
      const event = context.options.event;
      return report(
        await b.listWebhookAttempts(endpointId(args, sub!), {
          ...page(context),
          ...(event === undefined ? {} : { eventId: event }),
        }),
      );
    }
    case 'redeliver':
      return report(await b.redeliverWebhookMessage(...endpointAnd(args, sub!, 'an event id'), key));
    case 'replay':
      return report(await b.replayWebhookEndpoint(...endpointAnd(args, sub!, 'a time (ISO 8601 with a zone)'), key));
    case 'replay-status':
      return report(await b.getWebhookReplay(...endpointAnd(args, sub!, 'a replay id')));
    default: {
      const unhandled: never = sub as never;
      throw new UsageError(`unknown webhook command ${String(unhandled)}`);
    }
  }
}

export const webhook: Command = {
  name: 'webhook',
  usage:
    'webhook <list|get|create|enable|disable|rotate|test|delete|messages|attempts|redeliver|replay|replay-status> [arguments]',
  summary: "the account's webhook endpoints, their delivery log and replay",
  details: `  webhook list                       the endpoints, without secrets
  webhook get <id>                   one endpoint
  webhook create <url> <type...>     a new endpoint; prints its signing secret, shown this once
                                     (types: ParcelRegistered LabelGenerated ParcelCancelled CarrierEventRecorded)
  webhook enable|disable <id>        turn delivery on or off
  webhook rotate <id>                a new secret, printed once; the old one signs too for 24 h
  webhook test <id>                  queue a signed WebhookTest message
  webhook delete <id>                remove the endpoint
  webhook messages <id>              the endpoint's messages, newest first, with their state
  webhook attempts <id>              its delivery attempts, newest first (--event <event-id>: one message's)
  webhook redeliver <id> <event-id>  send a message again, with the same webhook-id
  webhook replay <id> <since>        send again every event recorded since a time (ISO 8601 with a zone)
  webhook replay-status <id> <replay-id>  how far a replay is

Options:
  --description <text>     create: a description of the endpoint
  --limit <n>              messages, attempts: how many (1 to 100; default 20)
  --cursor <cursor>        messages, attempts: the next_cursor of the page before
  --event <event-id>       attempts: only this message's
  --idempotency-key <key>  the Idempotency-Key of a change (default: a new UUID, the same on every retry)`,
  options: ['idempotency-key', 'description', 'limit', 'cursor', 'event'],
  run,
};
