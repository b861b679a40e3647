/** The gateway: one HTTP entry point for both interfaces (decisions.md, Addresses and HTTP statuses). */
import express from 'express';
import type { NextFunction, Request, Response } from 'express';
import { commandSender } from '@parcel-logistics/bus';
import { B, CODE_FAILURE, Topics } from '@parcel-logistics/contracts';
import type { LabelCommands, OrderCommands, TrackingCommands } from '@parcel-logistics/contracts';
import { createLockout } from './auth/lockout.ts';
import type { Lockout } from './auth/lockout.ts';
import { bearerToken, bodyCredentials, signedHeaders } from './auth/middleware.ts';
import { checkingHealth } from './checkingHealth/route.ts';
import type { GatewayContext, GatewayDeps } from './context.ts';
import { creatingOrder } from './creatingOrder/route.ts';
import { cancellingOrders } from './cancellingOrders/route.ts';
import { erasingPersonalData } from './erasingPersonalData/route.ts';
import { creatingLabel } from './creatingLabel/route.ts';
import { gettingShippingLabel } from './gettingShippingLabel/route.ts';
import { creatingOrders } from './creatingOrders/route.ts';
import { receivingCarrierEvents } from './receivingCarrierEvents/route.ts';
import { gettingBarcode } from './gettingBarcode/route.ts';
import { gettingStations } from './gettingStations/route.ts';
import { jsonObjectBody } from './http/body.ts';
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
    queryingStatus,
    gettingStations,
    cancellingOrders,
    erasingPersonalData,
    gettingShippingLabel,
    gettingBarcode,
    receivingCarrierEvents,
    trackingParcel,
    managingWebhooks,
    inspectingWebhookLog,
    replayingWebhooks,
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
