import { describe, expect, it } from '@jest/globals';
import { subscribeWrapped } from './decorating.ts';
import type { RecordedEvent, SubscribeToAllOptions, Subscription } from './port.ts';

const subscription: Subscription = { caughtUp: async () => undefined, stop: async () => undefined };
const event = { id: 'e-1', globalPosition: 7 } as RecordedEvent;

/** The options the wrapped store was given, and what its handler (either kind) did with `event`. */
async function passedOn(options: SubscribeToAllOptions) {
  const seen: string[] = [];
  let given: SubscribeToAllOptions | undefined;
  const store = {
    subscribeToAll: (o: SubscribeToAllOptions) => {
      given = o;
      return subscription;
    },
  };
  const returned = subscribeWrapped(store, options, {
    handler: (handler) => async (e) => {
      seen.push(`handler ${e.id}`);
      await handler(e);
    },
    handleBatch: (handleBatch) => async (events) => {
      seen.push(`page of ${events.length}`);
      await handleBatch(events);
    },
  });
  expect(returned).toBe(subscription);
  if (given?.handleBatch) await given.handleBatch([event]);
  else await given?.handler(event);
  return { given, seen };
}

describe('subscribeWrapped', () => {
  it('passes the settings on, with the one-event handler wrapped', async () => {
    const handled: RecordedEvent[] = [];
    const { given, seen } = await passedOn({ subscriptionId: 's-1', handler: async (e) => void handled.push(e) });
    expect(Object.keys(given!).sort()).toEqual(['handler', 'subscriptionId']);
    expect(given?.subscriptionId).toBe('s-1');
    expect(seen).toEqual(['handler e-1']);
    expect(handled).toEqual([event]);
  });

  it('passes a polling interval on, with the page handler wrapped', async () => {
    const pages: (readonly RecordedEvent[])[] = [];
    const { given, seen } = await passedOn({
      subscriptionId: 's-2',
      pollIntervalMs: 25,
      handleBatch: async (events) => void pages.push(events),
    });
    expect(Object.keys(given!).sort()).toEqual(['handleBatch', 'pollIntervalMs', 'subscriptionId']);
    expect(given).toMatchObject({ subscriptionId: 's-2', pollIntervalMs: 25 });
    expect(seen).toEqual(['page of 1']);
    expect(pages).toEqual([[event]]);
  });

  it('passes the streams a handler reads on, so the store below filters before any decorator opens an event', async () => {
    const { given } = await passedOn({
      subscriptionId: 's-3',
      streamPrefixes: ['import-'],
      handler: async () => undefined,
    });
    expect(Object.keys(given!).sort()).toEqual(['handler', 'streamPrefixes', 'subscriptionId']);
    expect(given?.streamPrefixes).toEqual(['import-']);
  });
});
