/** GET /healthz (alive) and GET /readyz (the bus and stores answer; 503 otherwise), as every service process serves them. */
import type { Router } from 'express';
import type { Bus } from '@parcel-logistics/bus';
import type { ProjectionStore } from '@parcel-logistics/projections';
import type { GatewayContext, Mounting } from '../context.ts';
import { mount } from '../http/mount.ts';

/**
 * What the probes reach: the bus and the projections to ping, the process's own readiness check,
 * the log.
 */
export interface CheckingHealthDeps extends Mounting, Pick<GatewayContext, 'ready' | 'log'> {
  bus: Pick<Bus, 'ping'>;
  projections: Pick<ProjectionStore, 'ping'>;
}

export function checkingHealth(router: Router, ctx: CheckingHealthDeps): void {
  mount(router, ctx, 'alive', (_req, res) => {
    res.json({ status: 'ok' });
  });
  mount(router, ctx, 'ready', async (_req, res) => {
    try {
      await Promise.all([ctx.bus.ping(), ctx.projections.ping(), ctx.ready?.()]);
      res.json({ status: 'ready' });
    } catch (error) {
      ctx.log.warn({ err: error }, 'not ready');
      res.status(503).json({ status: 'not ready' });
    }
  });
}
