export * from './port.ts';
export { createInProcessBus } from './inProcess.ts';
export type { InProcessBus, InProcessBusOptions } from './inProcess.ts';
