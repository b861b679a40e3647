/** GET /healthz (alive) and GET /readyz (the bus and stores answer; 503 otherwise), as every service process serves them. */
import type { Router } from 'express';
import type { GatewayContext } from '../context.ts';
import { mount } from '../http/mount.ts';

export function checkingHealth(router: Router, ctx: GatewayContext): void {
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
