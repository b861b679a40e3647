export * from './distributed.ts';
export * from './process.ts';
