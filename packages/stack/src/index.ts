export { environmentOf, specOf, STACK } from './description.ts';
export type { Counts, Placement, ServiceName, ServiceSpec } from './description.ts';
export { masterKeyFile, requireInfra, RUN_SETTINGS, runStack, Stack, waitReady } from './processes.ts';
export type { Infra, ServiceProcess, StackOptions, Stores } from './processes.ts';
