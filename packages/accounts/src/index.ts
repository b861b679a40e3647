export * from './model.ts';
export * from './port.ts';
export * from './secrets.ts';
export * from './operator.ts';
export * from './seed.ts';
export * from './directory.ts';
