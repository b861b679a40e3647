export { environmentOf, specOf, STACK } from './description.ts';
export type { Counts, Placement, ServiceName, ServiceSpec } from './description.ts';
export { requireInfra, RUN_SETTINGS, runStack, Stack, waitReady } from './processes.ts';
export type { Infra, ServiceProcess, StackOptions } from './processes.ts';
