export * from './distributed.ts';
export * from './process.ts';
export * from './serviceProcess.ts';
