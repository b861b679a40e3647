import type { Bus, CommandSender } from '@parcel-logistics/bus';
import type { Settings } from '@parcel-logistics/config';
import type { LabelCommands, OrderCommands, TrackingCommands } from '@parcel-logistics/contracts';
import type { Security } from '@parcel-logistics/contracts/api';
import type { Clock } from '@parcel-logistics/domain';
import type { ProjectionStore } from '@parcel-logistics/projections';
import type { WebhookDeliveries, WebhookStore } from '@parcel-logistics/webhooks';
import type { Account, AccountDirectory } from '@parcel-logistics/accounts';
import type { ReferenceData } from '@parcel-logistics/reference-data';
import type { RequestHandler, Response } from 'express';
import type { Logger } from 'pino';

/**
 * The settings the gateway reads, picked from the one settings type of packages/config (a
 * composition root passes its settings as they are): the command timeout, token lifetime,
 * interface A's generic error, rate limits, batch create, the Idempotency-Key lifetime, and of the
 * webhook settings the endpoint cap, private destinations and how far back a replay may start.
 */
export type GatewayConfig = Pick<
  Settings,
  | 'tokenTtlS'
  | 'commandTimeoutMs'
  | 'genericErrorA'
  | 'rateLimitPerSecond'
  | 'rateLimitBurst'
  | 'trackRateLimitPerMinute'
  | 'batchCreate'
  | 'idempotencyTtlS'
  | 'trustProxy'
> & { webhooks: Pick<Settings['webhooks'], 'maxEndpoints' | 'allowPrivate' | 'replayMaxAgeMs'> };

export interface GatewayDeps {
  bus: Bus;
  projections: ProjectionStore;
  /** The accounts, read from the account store and kept current (packages/accounts). */
  accounts: AccountDirectory;
  ref: ReferenceData;
  clock: Clock;
  log: Logger;
  config: GatewayConfig;
  /** The webhook endpoints (SQLite embedded, PostgreSQL distributed); without them the webhook paths answer as unknown. */
  webhooks?: WebhookStore;
  /** The webhook delivery queue, where test events are queued. */
  webhookDeliveries?: WebhookDeliveries;
  /** Extra readiness checks (the bus and stores of the process). */
  ready?: () => Promise<void>;
  /** The composition root's own middleware (tracing), placed before the body parser and every route. */
  middleware?: RequestHandler[];
  /** The process's metrics, served as GET /metrics (`createMetrics()` of @parcel-logistics/telemetry); without them it answers no metric. */
  metrics?: { readonly contentType: string; render(): Promise<string> };
}

/** A sender per service topic, each typed by that topic's command map and waiting the command timeout. */
export interface GatewayCommands {
  order: CommandSender<OrderCommands>;
  tracking: CommandSender<TrackingCommands>;
  label: CommandSender<LabelCommands>;
}

export interface GatewayContext extends GatewayDeps {
  /** The commands the routes send, the one way they reach the services. */
  commands: GatewayCommands;
  /** Authentication and rate limit of each kind of security, placed before every route handler of it. */
  guards: Record<Security, RequestHandler[]>;
  /**
   * The middleware that replays the answer of a POST repeated with the same Idempotency-Key (placed
   * after the guards), for a route whose answers hold a secret (`secretAnswer`, kept sealed) or not.
   */
  idempotency: (secretAnswer: boolean) => RequestHandler;
}

/**
 * What every slice needs to mount its routes: the guards and the idempotency middleware. Each
 * slice's own dependencies type (in its route.ts) adds the little else it reaches, narrowing the
 * context's bags (commands, config, projections) to the parts it uses.
 */
export type Mounting = Pick<GatewayContext, 'guards' | 'idempotency'>;

/** The authenticated account of a request, kept in res.locals by the interface's auth middleware. */
export function accountOf(res: Response): Account {
  const account = res.locals.account as Account | undefined;
  if (!account) throw new Error('route reached without authentication');
  return account;
}

/** The client of an authenticated request, undefined before (or without) authentication. */
export const clientIdOf = (res: Response): string | undefined => (res.locals.account as Account | undefined)?.clientId;

export function setAccount(res: Response, account: Account): void {
  res.locals.account = account;
}
