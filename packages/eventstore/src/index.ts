export * from './port.ts';
export * from './errors.ts';
export {
  startCatchUpSubscription,
  warnHandlerError,
  type CatchUpOptions,
  type CatchUpSource,
  type CatchUpSubscription,
  type HandlerErrorListener,
} from './catchUpSubscription.ts';
