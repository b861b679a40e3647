/** The gateway: one HTTP entry point for both interfaces (decisions.md, Addresses and HTTP statuses). */
import { createHash, timingSafeEqual } from 'node:crypto';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import express from 'express';
import type { NextFunction, Request, Response } from 'express';
import { commandSender } from '@parcel-logistics/bus';
import { B, CODE_FAILURE, Topics } from '@parcel-logistics/contracts';
import type { LabelCommands, OrderCommands, TrackingCommands } from '@parcel-logistics/contracts';
import { createLockout } from './auth/lockout.ts';
import type { Lockout } from './auth/lockout.ts';
import { addressOf, bearerToken, bodyCredentials, signedHeaders } from './auth/middleware.ts';
import { checkingHealth } from './checkingHealth/route.ts';
import { closingManifests } from './closingManifests/route.ts';
import type { GatewayContext, GatewayDeps } from './context.ts';
import { creatingOrder } from './creatingOrder/route.ts';
import { cancellingOrders } from './cancellingOrders/route.ts';
import { erasingPersonalData } from './erasingPersonalData/route.ts';
import { creatingLabel } from './creatingLabel/route.ts';
import { gettingShippingLabel } from './gettingShippingLabel/route.ts';
import { gettingShippingLabels } from './gettingShippingLabels/route.ts';
import { creatingOrders } from './creatingOrders/route.ts';
import { importingOrders } from './importingOrders/route.ts';
import { receivingCarrierEvents } from './receivingCarrierEvents/route.ts';
import { gettingBarcode } from './gettingBarcode/route.ts';
import { gettingStations } from './gettingStations/route.ts';
import { jsonObjectBody } from './http/body.ts';
import { managingAccounts, problem, type ManagingAccountsDeps } from './managingAccounts/route.ts';
import { idempotency } from './http/idempotency.ts';
import { interfaceOf, sendFor } from './http/interfaces.ts';
import { rateLimit } from './http/rateLimit.ts';
import { issuingToken } from './issuingToken/route.ts';
import { lookingUpStatus } from './lookingUpStatus/route.ts';
import { lookingUpTrackingNumber } from './lookingUpTrackingNumber/route.ts';
import { inspectingWebhookLog } from './inspectingWebhookLog/route.ts';
import { managingWebhooks } from './managingWebhooks/route.ts';
import { queryingStatus } from './queryingStatus/route.ts';
import { replayingWebhooks } from './replayingWebhooks/route.ts';
import { servingMetrics } from './servingMetrics/route.ts';
import { servingReference } from './servingReference/route.ts';
import { trackingParcel } from './trackingParcel/route.ts';

/**
 * The client interfaces' app. `lockout`: the counts of failed authentications, shared with the
 * operator API's app of the same process (one made here otherwise).
 */
export function createGatewayApp(deps: GatewayDeps, lockout: Lockout = createLockout(deps.clock)): express.Express {
  const { config, clock } = deps;
  const limit = rateLimit(config.rateLimitPerSecond, config.rateLimitBurst, clock);
  const auth = { accounts: deps.accounts, tokens: deps.projections.tokens, clock, lockout };
  const { bus } = deps;
  const ctx: GatewayContext = {
    ...deps,
    commands: {
      order: commandSender<OrderCommands>(bus, Topics.orderCommands, config.commandTimeoutMs),
      tracking: commandSender<TrackingCommands>(bus, Topics.trackingCommands, config.commandTimeoutMs),
      label: commandSender<LabelCommands>(bus, Topics.labelCommands, config.commandTimeoutMs),
    },
    guards: {
      bearer: [bearerToken(auth), limit],
      signed: [signedHeaders(auth), limit],
      credentials: [bodyCredentials(auth), limit],
      carrier: [],
      none: [],
    },
    idempotency: idempotency({
      store: deps.projections.idempotency,
      clock,
      log: deps.log,
      ttlMs: config.idempotencyTtlS * 1000,
      // Longer than any request can run: a create-order whose reply was lost waits about its command timeout.
      leaseMs: 2 * config.commandTimeoutMs + 5000,
    }),
  };
  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);
  app.set('query parser', 'simple');
  // Whom req.ip names behind a reverse proxy (docs/operations.md): the lockout counts per address.
  app.set('trust proxy', config.trustProxy);

  // Health, metrics and the reference come before the tracing middleware: probes, scrapes and page loads make no spans.
  const service = express.Router();
  checkingHealth(service, ctx);
  servingMetrics(service, ctx);
  servingReference(service, ctx);
  app.use(service);

  if (deps.middleware?.length) app.use(deps.middleware);
  app.use(jsonObjectBody);
  const routes = express.Router();
  const slices = [
    issuingToken,
    lookingUpStatus,
    lookingUpTrackingNumber,
    creatingLabel,
    creatingOrder,
    creatingOrders,
    importingOrders,
    queryingStatus,
    gettingStations,
    cancellingOrders,
    erasingPersonalData,
    gettingShippingLabel,
    gettingShippingLabels,
    gettingBarcode,
    receivingCarrierEvents,
    trackingParcel,
    managingWebhooks,
    inspectingWebhookLog,
    replayingWebhooks,
    closingManifests,
  ];
  for (const slice of slices) slice(routes, ctx);
  app.use(routes);

  app.use((req: Request, res: Response) => sendFor(req, res, CODE_FAILURE, B.apiNotFound, 404));

  app.use((error: unknown, req: Request, res: Response, _next: NextFunction) => {
    deps.log.error({ err: error, path: req.path }, 'request failed');
    if (res.headersSent) return;
    const message = interfaceOf(req.path) === 'A' ? config.genericErrorA : B.serverError;
    sendFor(req, res, CODE_FAILURE, message, 500);
  });
  return app;
}

/** The operator API's settings and what its routes reach (docs/operations.md). */
export interface AdminDeps extends ManagingAccountsDeps {
  /** The operators' tokens (`PARCEL_ADMIN_TOKEN`); none: the API is off. */
  tokens: readonly { name: string; token: string }[];
  /** Shared with the client interfaces' app of the process. */
  lockout: Lockout;
  trustProxy: boolean | number | string;
}

const ADMIN_BASE = '/admin/v1';
const digest = (token: string) => createHash('sha256').update(token, 'utf8').digest();

/**
 * The operator API's app (`/admin/v1/`): off (every path 404) without `PARCEL_ADMIN_TOKEN`; else
 * each request needs an operator's bearer token, compared in constant time behind the same
 * lockout as the client interfaces; JSON bodies of at most 64 KiB; problem documents for errors.
 */
export function createAdminApp(deps: AdminDeps): express.Express {
  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);
  app.set('query parser', 'simple');
  app.set('trust proxy', deps.trustProxy);
  const tokens = deps.tokens.map((t) => ({ name: t.name, digest: digest(t.token) }));

  if (tokens.length === 0) {
    app.use((_req: Request, res: Response) => problem(res, 'notFound'));
    return app;
  }

  /** The operator of the bearer token; every token compared, so the time says nothing of which matched. */
  app.use(ADMIN_BASE, (req: Request, res: Response, next: NextFunction) => {
    const subjects = [addressOf(req)];
    const wait = deps.lockout.retryAfterS(subjects);
    if (wait > 0) {
      res.setHeader('Retry-After', String(wait));
      return problem(res, 'locked', 'Try again later.');
    }
    const match = /^Bearer +(\S+)\s*$/i.exec(req.headers.authorization ?? '');
    const given = digest(match?.[1] ?? '');
    let operator: string | undefined;
    for (const t of tokens) if (timingSafeEqual(t.digest, given)) operator = t.name;
    if (!operator) {
      deps.lockout.failed(subjects);
      deps.log.warn(
        { address: subjects[0]!.id, method: req.method, path: req.originalUrl },
        'operator request refused',
      );
      res.setHeader('WWW-Authenticate', 'Bearer realm="parcel-admin"');
      return problem(res, 'unauthorized', 'Authorization: Bearer <PARCEL_ADMIN_TOKEN> is required.');
    }
    res.locals.operator = operator;
    // Each operator request in the log (the audit log keeps the changes): never a body, which may hold a key.
    res.once('finish', () =>
      deps.log.info(
        { operator, method: req.method, path: req.originalUrl, status: res.statusCode },
        'operator request',
      ),
    );
    next();
  });
  app.use(express.json({ limit: '64kb', type: () => true }));

  const router = express.Router();
  managingAccounts(router, deps);
  app.use(ADMIN_BASE, router);
  app.use((_req: Request, res: Response) => problem(res, 'notFound'));
  app.use((error: unknown, req: Request, res: Response, _next: NextFunction) => {
    const status = (error as { status?: number }).status;
    if (status === 400 || status === 413) {
      return problem(res, 'invalidBody', status === 413 ? 'The body is over 64 KiB.' : 'The body is not valid JSON.');
    }
    deps.log.error({ err: error, path: req.path }, 'operator request failed');
    if (!res.headersSent) problem(res, 'serverError');
  });
  return app;
}

/**
 * The operator API listening on its own port, when an admin token is set; undefined otherwise (the
 * API is off). Resolves once it listens; a port that cannot be had is an error.
 */
export async function listenAdmin(
  deps: AdminDeps,
  at: { port: number; host: string },
): Promise<{ url: string; close(): Promise<void> } | undefined> {
  if (deps.tokens.length === 0) return undefined;
  const app = createAdminApp(deps);
  const server = await new Promise<Server>((resolve, reject) => {
    const s = app.listen(at.port, at.host, (error?: Error) => (error ? reject(error) : resolve(s)));
  });
  const { port } = server.address() as AddressInfo;
  deps.log.info({ adminPort: port, host: at.host }, 'operator API ready');
  return {
    url: `http://${at.host.includes(':') ? `[${at.host}]` : at.host}:${port}`,
    close: async () => {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeIdleConnections();
      await closed;
    },
  };
}
