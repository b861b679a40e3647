export type { CancelOutcome, CancelResult, CarrierClient, RegisterResult, ShipmentToRegister } from './port.ts';
export { createLmxClient } from './lmx/lmxClient.ts';
export { verifyCarrierSignature } from './events/signature.ts';
export { parseCarrierEvent } from './events/parseCarrierEvent.ts';
export type { CarrierEvent, ParsedCarrierEvent } from './events/parseCarrierEvent.ts';
export { mapCarrierCode } from './events/mapCarrierCode.ts';
export { lmxCarrierClients } from './lmx/lmxCarriers.ts';
