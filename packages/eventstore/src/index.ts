export * from './port.ts';
export * from './errors.ts';
export * from './decorating.ts';
