export * from './ids.ts';
export * from './toAppend.ts';
export * from './parcelProjector.ts';
export * from './handleCommand.ts';
export * from './parcelCommands.ts';
export * from './parcelEventMessage.ts';
export * from './parcelOwners.ts';
export * from './sealingEventStore.ts';
