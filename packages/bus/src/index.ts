export * from './port.ts';
export { commandMessage, commandSender, serveCommands, UnknownCommandError } from './commands.ts';
export type {
  CommandHandlers,
  CommandMap,
  CommandMessage,
  CommandMeta,
  CommandSender,
  CommandSpec,
  CommandType,
  SendOptions,
} from './commands.ts';
export { createInProcessBus } from './inProcess.ts';
export type { InProcessBus, InProcessBusOptions } from './inProcess.ts';
