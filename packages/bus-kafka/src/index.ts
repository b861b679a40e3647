export { createKafkaBus } from './kafka.ts';
export type { BusLogLevel, BusLogger, EnsureTopics, KafkaBusOptions } from './kafka.ts';
