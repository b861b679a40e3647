/** The conformance suite of the webhook store port, run against every adapter. */
import { describe, expect, it } from '@jest/globals';
import { openPerTest, type StoreHarness } from '@parcel-logistics/conformance';
import type { WebhookEndpoint, WebhookStore } from './port.ts';

/** `reopen`: a second store on the same data, when the adapter is durable. */
export type WebhookStoreFixture = StoreHarness<WebhookStore>;

export const endpointOf = (id: string, clientId: string, over: Partial<WebhookEndpoint> = {}): WebhookEndpoint => ({
  id,
  clientId,
  url: `https://hooks.example/${id}`,
  eventTypes: ['ParcelRegistered'],
  description: '',
  enabled: true,
  disabledReason: '',
  secrets: [{ secret: `whsec_${Buffer.from(id).toString('base64')}`, expiresAt: null }],
  createdAt: new Date('2026-11-22T06:05:09Z'),
  updatedAt: new Date('2026-11-22T06:05:09Z'),
  ...over,
});

export function webhookStoreConformance(name: string, open: () => Promise<WebhookStoreFixture>): void {
  describe(`webhook store conformance: ${name}`, () => {
    const start = openPerTest(open);

    it('keeps every field of an endpoint, and lists an account’s endpoints oldest first', async () => {
      const { store } = await start();
      const later = endpointOf('we_2', 'c1', {
        createdAt: new Date('2026-11-23T00:00:00Z'),
        eventTypes: ['LabelGenerated', 'ParcelCancelled'],
      });
      const first = endpointOf('we_1', 'c1', {
        description: 'ops',
        secrets: [
          { secret: 'whsec_bmV3', expiresAt: null },
          { secret: 'whsec_b2xk', expiresAt: new Date('2026-11-23T06:05:09Z') },
        ],
      });
      expect(await store.create(later, 10)).toBe('created');
      expect(await store.create(first, 10)).toBe('created');
      expect(await store.list('c1')).toEqual([first, later]);
      expect(await store.get('c1', 'we_1')).toEqual(first);
      expect(await store.find('we_1')).toEqual(first);
      expect(await store.find('we_9')).toBeUndefined();
    });

    it('never shows one account’s endpoint to another', async () => {
      const { store } = await start();
      await store.create(endpointOf('we_1', 'c1'), 10);
      expect(await store.get('c2', 'we_1')).toBeUndefined();
      expect(await store.list('c2')).toEqual([]);
      expect(await store.update(endpointOf('we_1', 'c2', { url: 'https://evil.example' }))).toBe(false);
      expect(await store.delete('c2', 'we_1')).toBe(false);
      expect((await store.get('c1', 'we_1'))?.url).toBe('https://hooks.example/we_1');
    });

    it('refuses an endpoint past the cap of its account only', async () => {
      const { store } = await start();
      expect(await store.create(endpointOf('we_1', 'c1'), 2)).toBe('created');
      expect(await store.create(endpointOf('we_2', 'c1'), 2)).toBe('created');
      expect(await store.create(endpointOf('we_3', 'c1'), 2)).toBe('limit');
      expect(await store.create(endpointOf('we_4', 'c2'), 2)).toBe('created');
      expect((await store.list('c1')).map((e) => e.id)).toEqual(['we_1', 'we_2']);
    });

    it('concurrent creates never pass the cap', async () => {
      const { store } = await start();
      const outcomes = await Promise.all(
        Array.from({ length: 12 }, (_, i) => store.create(endpointOf(`we_${i}`, 'c1'), 3)),
      );
      expect(outcomes.filter((o) => o === 'created')).toHaveLength(3);
      expect(await store.list('c1')).toHaveLength(3);
    });

    it('updates and deletes', async () => {
      const { store } = await start();
      await store.create(endpointOf('we_1', 'c1'), 10);
      const changed = endpointOf('we_1', 'c1', {
        enabled: false,
        disabledReason: 'failing',
        eventTypes: ['CarrierEventRecorded'],
        updatedAt: new Date('2026-11-24T00:00:00Z'),
      });
      expect(await store.update(changed)).toBe(true);
      expect(await store.get('c1', 'we_1')).toEqual(changed);
      expect(await store.delete('c1', 'we_1')).toBe(true);
      expect(await store.delete('c1', 'we_1')).toBe(false);
      expect(await store.get('c1', 'we_1')).toBeUndefined();
      expect(await store.create(endpointOf('we_2', 'c1'), 1)).toBe('created');
    });

    it('keeps endpoints across a reopen', async () => {
      const { store, reopen } = await start();
      if (!reopen) return;
      await store.create(endpointOf('we_1', 'c1'), 10);
      const again = await reopen();
      expect(await again.get('c1', 'we_1')).toEqual(endpointOf('we_1', 'c1'));
      await again.close();
    });
  });
}
export { replayRequestOf, webhookDeliveriesConformance } from './deliveriesConformance.ts';
