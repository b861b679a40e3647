import type { Settings } from '@parcel-logistics/config';
import type { GatewayConfig } from './context.ts';

export const gatewayConfig = (settings: Settings): GatewayConfig => ({
  tokenTtlS: settings.tokenTtlS,
  commandTimeoutMs: settings.commandTimeoutMs,
  genericErrorA: settings.genericErrorA,
  rateLimitPerSecond: settings.rateLimitPerSecond,
  rateLimitBurst: settings.rateLimitBurst,
  trackRateLimitPerMinute: settings.trackRateLimitPerMinute,
  batchCreate: settings.batchCreate,
  idempotencyTtlS: settings.idempotencyTtlS,
  webhooks: settings.webhooks,
});
