/**
 * GET /metrics: the process's metrics in the Prometheus text format, collected at each request.
 * The composition root hands them over (`GatewayDeps.metrics`); a gateway given none (a test's,
 * a benchmark's) answers an empty exposition, which is valid text with no metric in it.
 */
import type { Router } from 'express';
import type { GatewayContext, Mounting } from '../context.ts';
import { mount } from '../http/mount.ts';

const EMPTY = { contentType: 'text/plain; version=0.0.4; charset=utf-8', render: async () => '' };

/** What /metrics reaches: the process's metrics. */
export type ServingMetricsDeps = Mounting & Pick<GatewayContext, 'metrics'>;

export function servingMetrics(router: Router, ctx: ServingMetricsDeps): void {
  const metrics = ctx.metrics ?? EMPTY;
  mount(router, ctx, 'metrics', async (_req, res) => {
    const text = await metrics.render();
    res.setHeader('content-type', metrics.contentType);
    res.setHeader('cache-control', 'no-store');
    res.send(text);
  });
}
