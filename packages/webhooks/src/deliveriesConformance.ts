/** The conformance suite of the delivery queue port, run against every adapter. */
import { afterEach, describe, expect, it } from '@jest/globals';
import type { QueuedDelivery, WebhookDeliveries } from './deliveries.ts';

const T0 = new Date('2026-11-22T06:05:09Z');
const at = (ms: number) => new Date(T0.getTime() + ms);
const queued = (endpointId: string, position: number): QueuedDelivery => ({ endpointId, eventId: `ev-${position}`, position, body: `{"p":${position}}` });

export function webhookDeliveriesConformance(name: string, open: () => Promise<{ deliveries: WebhookDeliveries; cleanup: () => Promise<void> }>): void {
  describe(`webhook deliveries conformance: ${name}`, () => {
    let cleanup: (() => Promise<void>) | undefined;
    const start = async () => {
      const fixture = await open();
      cleanup = fixture.cleanup;
      return fixture.deliveries;
    };
    afterEach(async () => {
      await cleanup?.();
      cleanup = undefined;
    });

    it('hands out each endpoint’s deliveries in log order, one head at a time; queueing twice changes nothing', async () => {
      const d = await start();
      await d.enqueue([queued('we_a', 7), queued('we_a', 3), queued('we_b', 5)], T0);
      await d.enqueue([queued('we_a', 3)], at(1000));
      expect((await d.dueEndpoints(T0)).sort()).toEqual(['we_a', 'we_b']);
      expect(await d.head('we_a')).toEqual({ ...queued('we_a', 3), attempts: 0, nextAttemptAt: T0, failingSince: null });
      await d.remove('we_a', 'ev-3');
      expect((await d.head('we_a'))?.position).toBe(7);
      await d.remove('we_a', 'ev-7');
      expect(await d.head('we_a')).toBeUndefined();
    });

    it('a retried head is not due before its time, and holds back the deliveries behind it', async () => {
      const d = await start();
      await d.enqueue([queued('we_a', 1), queued('we_a', 2)], T0);
      await d.retryAt('we_a', 'ev-1', 1, at(5000), T0);
      expect(await d.dueEndpoints(at(4999))).toEqual([]);
      expect(await d.dueEndpoints(at(5000))).toEqual(['we_a']);
      expect(await d.head('we_a')).toMatchObject({ eventId: 'ev-1', attempts: 1, nextAttemptAt: at(5000), failingSince: T0 });
      await d.dropEndpoint('we_a');
      expect(await d.head('we_a')).toBeUndefined();
      await expect(d.ping()).resolves.toBeUndefined();
    });

    it('deliveries queued at one position (test events) go out in the order queued', async () => {
      const d = await start();
      const last = Number.MAX_SAFE_INTEGER;
      await d.enqueue([{ ...queued('we_a', last), eventId: 'test-b' }], T0);
      await d.enqueue([{ ...queued('we_a', last), eventId: 'test-a' }, queued('we_a', 4)], T0);
      const order: string[] = [];
      for (let head = await d.head('we_a'); head; head = await d.head('we_a')) {
        order.push(head.eventId);
        await d.remove('we_a', head.eventId);
      }
      expect(order).toEqual(['ev-4', 'test-b', 'test-a']);
    });

    it('one owner at a time holds an endpoint’s queue: renewed by its holder, taken over once expired, free once released', async () => {
      const d = await start();
      expect(await d.claim('we_a', 'one', T0, at(1000))).toBe(true);
      expect(await d.claim('we_a', 'two', at(500), at(1500))).toBe(false);
      expect(await d.claim('we_b', 'two', at(500), at(1500))).toBe(true);
      expect(await d.claim('we_a', 'one', at(900), at(2000))).toBe(true);
      expect(await d.claim('we_a', 'two', at(1999), at(3000))).toBe(false);
      expect(await d.claim('we_a', 'two', at(2000), at(3000))).toBe(true);
      expect(await d.claim('we_a', 'one', at(2100), at(4000))).toBe(false);
      await d.release('we_a', 'one');
      expect(await d.claim('we_a', 'one', at(2200), at(4000))).toBe(false);
      await d.release('we_a', 'two');
      expect(await d.claim('we_a', 'one', at(2300), at(4000))).toBe(true);
    });

    it('of many owners claiming one free endpoint at once, exactly one wins', async () => {
      const d = await start();
      const won = await Promise.all(Array.from({ length: 12 }, (_, i) => d.claim('we_a', `owner-${i}`, T0, at(1000))));
      expect(won.filter(Boolean)).toHaveLength(1);
    });
  });
}
