export * from './port.ts';
export { createInProcessBus } from './inProcess.ts';
export type { InProcessBus, InProcessBusOptions } from './inProcess.ts';
export { createKafkaBus } from './kafka.ts';
export type { BusLogLevel, BusLogger, EnsureTopics, KafkaBusOptions } from './kafka.ts';
