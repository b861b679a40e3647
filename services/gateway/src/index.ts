export { createGatewayApp } from './app.ts';
export { clientIdOf } from './context.ts';
export type { GatewayConfig, GatewayDeps } from './context.ts';
export { signature } from './auth/signature.ts';
export { gatewayConfig } from './config.ts';
