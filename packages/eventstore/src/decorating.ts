/** What the EventStore's decorators share: a subscription passed on with its handler wrapped. */
import type { EventStore, RecordedEvent, SubscribeToAllOptions, Subscription, SubscriptionSettings } from './port.ts';

type EventHandler = (event: RecordedEvent) => Promise<void>;
type PageHandler = (events: readonly RecordedEvent[]) => Promise<void>;

/**
 * Subscribes to `store` with the settings of `options` and its handler wrapped: `wrap.handler`
 * wraps a one-event handler, `wrap.handleBatch` a page handler, whichever `options` has.
 */
export function subscribeWrapped(
  store: Pick<EventStore, 'subscribeToAll'>,
  options: SubscribeToAllOptions,
  wrap: { handler: (handler: EventHandler) => EventHandler; handleBatch: (handleBatch: PageHandler) => PageHandler },
): Subscription {
  const settings = settingsOf(options);
  return options.handleBatch
    ? store.subscribeToAll({ ...settings, handleBatch: wrap.handleBatch(options.handleBatch) })
    : store.subscribeToAll({ ...settings, handler: wrap.handler(options.handler) });
}

/** A subscription's settings without its handler, for a decorator to pass on with a handler of its own. */
export function settingsOf({
  subscriptionId,
  pollIntervalMs,
  streamPrefixes,
  checkpoints,
}: SubscriptionSettings): SubscriptionSettings {
  return {
    subscriptionId,
    ...(pollIntervalMs === undefined ? {} : { pollIntervalMs }),
    ...(streamPrefixes === undefined ? {} : { streamPrefixes }),
    ...(checkpoints === undefined ? {} : { checkpoints }),
  };
}
