export * from './messages.ts';
export * from './envelopes.ts';
export * from './order.ts';
export * from './views.ts';
export * from './events.ts';
export * from './commands.ts';
export * from './requests.ts';
export * from './validation/createOrder.ts';
