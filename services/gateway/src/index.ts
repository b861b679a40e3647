export { createGatewayApp } from './app.ts';
export { API_VERSION, openApiDocument } from './servingReference/document.ts';
export { clientIdOf } from './context.ts';
export type { GatewayConfig, GatewayDeps } from './context.ts';
export { signature } from './auth/signature.ts';
export { createAdminApp, listenAdmin } from './app.ts';
export type { AdminDeps } from './app.ts';
export { createLockout } from './auth/lockout.ts';
export type { Lockout } from './auth/lockout.ts';
