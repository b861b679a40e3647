export * from './port.ts';
export * from './errors.ts';
