export { createGatewayApp } from './app.ts';
export type { GatewayConfig, GatewayDeps } from './context.ts';
export { signature } from './auth/signature.ts';
