export { createCarrierSandbox } from './sandbox.ts';
export type { CarrierSandbox, CarrierSandboxOptions, CarrierSandboxState, PushedEvent } from './sandbox.ts';
export type { SandboxShipment } from './shipments.ts';
export type { PushOutcome } from './callback.ts';
