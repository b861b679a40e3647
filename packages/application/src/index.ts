export * from './ids.ts';
export * from './toAppend.ts';
export * from './parcelProjector.ts';
export * from './parcelCommands.ts';
