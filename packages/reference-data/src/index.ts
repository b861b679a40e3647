export * from './types.ts';
export * from './load.ts';
export { haversineMetres } from './geo.ts';
