export { startEmbedded } from './embedded.ts';
export type { EmbeddedOptions, EmbeddedStack } from './embedded.ts';
