/**
 * Routes are mounted from the operation registry: its method, path and security decide the route
 * and the guards before the handler, so the OpenAPI document and the router cannot disagree.
 */
import type { RequestHandler, Router } from 'express';
import { forAccount, operation } from '@parcel-logistics/contracts/api';
import type { Mounting } from '../context.ts';

export function mount(router: Router, ctx: Mounting, operationId: string, ...handlers: RequestHandler[]): void {
  const op = operation(operationId);
  const idempotent = op.method === 'post' && forAccount(op.security) ? [ctx.idempotency(op.secretAnswer === true)] : [];
  router[op.method](op.path, ...ctx.guards[op.security], ...idempotent, ...handlers);
}
