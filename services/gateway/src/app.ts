/** The gateway: one HTTP entry point for both interfaces (decisions.md, Addresses and HTTP statuses). */
import express from 'express';
import type { NextFunction, Request, Response } from 'express';
import { B, CODE_FAILURE } from '@parcel/contracts';
import { bearerToken, signedHeaders } from './auth/middleware.ts';
import type { GatewayContext, GatewayDeps } from './context.ts';
import { creatingOrder } from './creatingOrder/route.ts';
import { cancellingOrders } from './cancellingOrders/route.ts';
import { creatingLabel } from './creatingLabel/route.ts';
import { gettingShippingLabel } from './gettingShippingLabel/route.ts';
import { creatingOrders } from './creatingOrders/route.ts';
import { receivingCarrierEvents } from './receivingCarrierEvents/route.ts';
import { gettingBarcode } from './gettingBarcode/route.ts';
import { gettingStations } from './gettingStations/route.ts';
import { jsonObjectBody } from './http/body.ts';
import { interfaceOf, sendFor } from './http/interfaces.ts';
import { rateLimit } from './http/rateLimit.ts';
import { issuingToken } from './issuingToken/route.ts';
import { lookingUpStatus } from './lookingUpStatus/route.ts';
import { lookingUpTrackingNumber } from './lookingUpTrackingNumber/route.ts';
import { queryingStatus } from './queryingStatus/route.ts';

export function createGatewayApp(deps: GatewayDeps): express.Express {
  const { config, clock } = deps;
  const limit = rateLimit(config.rateLimitPerSecond, config.rateLimitBurst, clock);
  const accountsByName = new Map(deps.accounts.map((a) => [a.apiName, a]));
  const accountsById = new Map(deps.accounts.map((a) => [a.clientId, a]));
  const guards = {
    A: [bearerToken(deps.projections.tokens, accountsById, clock), limit],
    B: [signedHeaders(accountsByName, clock), limit],
  };
  const ctx: GatewayContext = { ...deps, accountsByName, accountsById, guards };
  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);
  app.set('query parser', 'simple');

  app.get('/healthz', (_req, res) => {
    res.json({ status: 'ok' });
  });
  app.get('/readyz', async (_req, res) => {
    try {
      await Promise.all([deps.bus.ping(), deps.projections.ping(), deps.ready?.()]);
      res.json({ status: 'ready' });
    } catch (error) {
      deps.log.warn({ err: error }, 'not ready');
      res.status(503).json({ status: 'not ready' });
    }
  });

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
    gettingShippingLabel,
    gettingBarcode,
    receivingCarrierEvents,
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
