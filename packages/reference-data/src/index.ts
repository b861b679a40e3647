export * from './types.ts';
export * from './load.ts';
