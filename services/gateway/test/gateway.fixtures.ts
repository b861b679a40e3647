/** Test support (not production code): the gateway on its own, with fixed settings, for the gateway's own int tests. */
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import pino from 'pino';
import { fixedDirectory } from '@parcel-logistics/accounts';
import { loadAccounts, loadReferenceData } from '@parcel-logistics/reference-data';
import { createGatewayApp } from '../src/app.ts';
import type { GatewayDeps } from '../src/context.ts';

export const FIXED_NOW = new Date('2026-11-22T06:05:09Z');

/**
 * A gateway over the given bus and projections, the demo accounts and reference data, a fixed
 * clock; `deps` may bring its own clock, and `config` change settings.
 */
export function listeningGateway(
  deps: Pick<GatewayDeps, 'bus' | 'projections'> & Partial<Pick<GatewayDeps, 'clock'>>,
  config: Partial<GatewayDeps['config']> = {},
) {
  const app = createGatewayApp({
    accounts: fixedDirectory(loadAccounts()),
    ref: loadReferenceData(),
    clock: { now: () => FIXED_NOW },
    ...deps,
    log: pino({ level: 'silent' }),
    config: {
      tokenTtlS: 60,
      commandTimeoutMs: 1000,
      genericErrorA: 'Error encountered, please contact support@parcel.example',
      rateLimitPerSecond: 0,
      rateLimitBurst: 1,
      trackRateLimitPerMinute: 0,
      batchCreate: { enabled: false, max: 50 },
      idempotencyTtlS: 86400,
      trustProxy: false,
      webhooks: { maxEndpoints: 10, allowPrivate: false, replayMaxAgeMs: 30 * 24 * 60 * 60 * 1000 },
      ...config,
    },
  });
  let server: Server | undefined;
  return {
    start: () => new Promise<void>((resolve) => (server = app.listen(0, '127.0.0.1', () => resolve()))),
    stop: () => new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve())),
    url: () => `http://127.0.0.1:${(server!.address() as AddressInfo).port}`,
  };
}
