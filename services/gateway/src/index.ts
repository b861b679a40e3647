export { createGatewayApp } from './app.ts';
export { API_VERSION, openApiDocument } from './servingReference/document.ts';
export { clientIdOf } from './context.ts';
export type { GatewayConfig, GatewayDeps } from './context.ts';
export { signature } from './auth/signature.ts';
