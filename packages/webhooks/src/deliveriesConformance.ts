/** The conformance suite of the delivery port, run against every adapter. */
import { afterEach, describe, expect, it } from '@jest/globals';
import { TEST_EVENT_POSITION } from './deliveries.ts';
import type { DeliveryAttempt, QueuedDelivery, ReplayRequest, WebhookDeliveries } from './deliveries.ts';

const T0 = new Date('2026-11-22T06:05:09Z');
const at = (ms: number) => new Date(T0.getTime() + ms);
const queued = (endpointId: string, position: number): QueuedDelivery => ({
  endpointId,
  eventId: `ev-${position}`,
  position,
  body: `{"p":${position}}`,
});
const attempt = (
  endpointId: string,
  eventId: string,
  n: number,
  over: Partial<DeliveryAttempt> = {},
): DeliveryAttempt => ({
  endpointId,
  eventId,
  attempt: n,
  at: at(n * 1000),
  durationMs: 12,
  status: 500,
  answer: 'busy',
  reason: 'HTTP 500',
  ...over,
});
/** A replay request as asked for at T0 + 1 min, since T0 (`over` replaces any of it). */
export const replayRequestOf = (id: string, endpointId: string, over: Partial<ReplayRequest> = {}): ReplayRequest => ({
  id,
  endpointId,
  since: T0,
  requestedAt: at(60_000),
  status: 'requested',
  position: 0,
  scanned: 0,
  queued: 0,
  finishedAt: null,
  ...over,
});

export function webhookDeliveriesConformance(
  name: string,
  open: () => Promise<{ deliveries: WebhookDeliveries; cleanup: () => Promise<void> }>,
): void {
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
      expect(await d.head('we_a')).toEqual({
        ...queued('we_a', 3),
        attempts: 0,
        nextAttemptAt: T0,
        failingSince: null,
      });
      await d.settle('we_a', 'ev-3', 'delivered', 1, at(10));
      expect((await d.head('we_a'))?.position).toBe(7);
      await d.settle('we_a', 'ev-7', 'failed', 1, at(20));
      expect(await d.head('we_a')).toBeUndefined();
      expect(await d.dueEndpoints(at(30))).toEqual(['we_b']);
      await d.enqueue([queued('we_a', 3)], at(40));
      expect(await d.head('we_a')).toBeUndefined();
    });

    it('orders by position and by attempt as numbers, 10 after 9', async () => {
      const d = await start();
      await d.enqueue([queued('we_a', 10), queued('we_a', 9)], T0);
      expect((await d.head('we_a'))?.position).toBe(9);
      expect((await d.messages('we_a', { limit: 10 })).map((m) => m.position)).toEqual([10, 9]);
      for (let n = 1; n <= 11; n++) await d.recordAttempt(attempt('we_a', 'ev-9', n));
      expect((await d.attempts('we_a', { limit: 3 })).map((a) => a.attempt)).toEqual([11, 10, 9]);
    });

    it('a retried head is not due before its time, and holds back the deliveries behind it', async () => {
      const d = await start();
      await d.enqueue([queued('we_a', 1), queued('we_a', 2)], T0);
      await d.retryAt('we_a', 'ev-1', 1, at(5000), T0);
      expect(await d.dueEndpoints(at(4999))).toEqual([]);
      expect(await d.dueEndpoints(at(5000))).toEqual(['we_a']);
      expect(await d.head('we_a')).toMatchObject({
        eventId: 'ev-1',
        attempts: 1,
        nextAttemptAt: at(5000),
        failingSince: T0,
      });
    });

    it('keeps settled messages with their state, and lists them newest first a page at a time', async () => {
      const d = await start();
      await d.enqueue(
        [1, 2, 3, 4, 5].map((p) => queued('we_a', p)),
        T0,
      );
      await d.enqueue([queued('we_b', 9)], T0);
      await d.settle('we_a', 'ev-1', 'delivered', 1, at(100));
      await d.retryAt('we_a', 'ev-2', 3, at(9000), at(200));
      await d.settle('we_a', 'ev-2', 'failed', 4, at(300));
      const first = await d.messages('we_a', { limit: 2 });
      expect(first.map((m) => m.eventId)).toEqual(['ev-5', 'ev-4']);
      expect(first[0]).toEqual({
        ...queued('we_a', 5),
        state: 'pending',
        attempts: 0,
        nextAttemptAt: T0,
        failingSince: null,
        queuedAt: T0,
        settledAt: null,
      });
      const last = first[1]!;
      const rest = await d.messages('we_a', { limit: 10, before: { position: last.position, eventId: last.eventId } });
      expect(rest.map((m) => [m.eventId, m.state])).toEqual([
        ['ev-3', 'pending'],
        ['ev-2', 'failed'],
        ['ev-1', 'delivered'],
      ]);
      expect(rest[1]).toMatchObject({ attempts: 4, failingSince: at(200), settledAt: at(300) });
      expect(rest[2]).toMatchObject({ attempts: 1, failingSince: null, settledAt: at(100) });
      expect(await d.messages('we_c', { limit: 10 })).toEqual([]);
    });

    it('pages messages that share a position (test events) by event id, none twice or lost', async () => {
      const d = await start();
      const top = TEST_EVENT_POSITION;
      await d.enqueue(
        ['t-a', 't-b', 't-c'].map((eventId) => ({ endpointId: 'we_a', eventId, position: top, body: '{}' })),
        T0,
      );
      const page1 = await d.messages('we_a', { limit: 2 });
      const page2 = await d.messages('we_a', { limit: 2, before: { position: top, eventId: page1[1]!.eventId } });
      expect([...page1, ...page2].map((m) => m.eventId)).toEqual(['t-c', 't-b', 't-a']);
    });

    it('records every attempt and lists them newest first, per endpoint or per message', async () => {
      const d = await start();
      await d.enqueue([queued('we_a', 1), queued('we_a', 2)], T0);
      await d.recordAttempt(
        attempt('we_a', 'ev-1', 1, {
          status: null,
          answer: '',
          reason: 'network error: connect ECONNREFUSED',
          durationMs: 3,
        }),
      );
      await d.recordAttempt(attempt('we_a', 'ev-1', 2));
      await d.recordAttempt(attempt('we_a', 'ev-1', 3, { status: 200, answer: 'ok', reason: '' }));
      await d.recordAttempt(attempt('we_a', 'ev-2', 1, { status: 204, answer: '', reason: '' }));
      await d.recordAttempt(attempt('we_b', 'ev-1', 1));
      const all = await d.attempts('we_a', { limit: 10 });
      expect(all.map((a) => [a.eventId, a.attempt])).toEqual([
        ['ev-2', 1],
        ['ev-1', 3],
        ['ev-1', 2],
        ['ev-1', 1],
      ]);
      const { seq, ...oldest } = all[3]!;
      expect(oldest).toEqual(
        attempt('we_a', 'ev-1', 1, {
          status: null,
          answer: '',
          reason: 'network error: connect ECONNREFUSED',
          durationMs: 3,
        }),
      );
      expect(all[0]!.seq).toBeGreaterThan(all[1]!.seq);
      expect(typeof seq).toBe('number');
      const page2 = await d.attempts('we_a', { limit: 2, before: all[1]!.seq });
      expect(page2.map((a) => a.attempt)).toEqual([2, 1]);
      expect((await d.attempts('we_a', { limit: 10, eventId: 'ev-1' })).map((a) => a.attempt)).toEqual([3, 2, 1]);
    });

    it('redelivers a settled message with the same id, pending from now; a pending one is left alone; an unknown one is unknown', async () => {
      const d = await start();
      await d.enqueue([queued('we_a', 1), queued('we_a', 2)], T0);
      await d.retryAt('we_a', 'ev-1', 2, at(5000), at(10));
      await d.settle('we_a', 'ev-1', 'delivered', 3, at(6000));
      expect(await d.redeliver('we_a', 'ev-1', at(7000))).toBe('queued');
      expect(await d.head('we_a')).toEqual({
        ...queued('we_a', 1),
        attempts: 0,
        nextAttemptAt: at(7000),
        failingSince: null,
      });
      expect((await d.messages('we_a', { limit: 10 })).find((m) => m.eventId === 'ev-1')).toMatchObject({
        state: 'pending',
        queuedAt: at(7000),
        settledAt: null,
      });
      expect(await d.redeliver('we_a', 'ev-2', at(7000))).toBe('pending');
      expect(await d.redeliver('we_a', 'ev-9', at(7000))).toBe('unknown');
      expect(await d.redeliver('we_b', 'ev-1', at(7000))).toBe('unknown');
    });

    it('requeues delivered messages and adds missing ones, pending in log order', async () => {
      const d = await start();
      await d.enqueue([queued('we_a', 2), queued('we_a', 4)], T0);
      await d.settle('we_a', 'ev-2', 'delivered', 1, at(10));
      await d.settle('we_a', 'ev-4', 'failed', 2, at(20));
      await d.requeue([queued('we_a', 4), queued('we_a', 2), queued('we_a', 3)], at(30));
      const pending = await d.messages('we_a', { limit: 10 });
      expect(pending.map((m) => [m.eventId, m.state, m.attempts, m.queuedAt])).toEqual([
        ['ev-4', 'pending', 0, at(30)],
        ['ev-3', 'pending', 0, at(30)],
        ['ev-2', 'pending', 0, at(30)],
      ]);
      expect((await d.head('we_a'))?.eventId).toBe('ev-2');
    });

    it('allows one open replay per endpoint, and keeps its progress', async () => {
      const d = await start();
      expect(await d.requestReplay(replayRequestOf('rp_1', 'we_a'))).toBe('requested');
      expect(await d.requestReplay(replayRequestOf('rp_2', 'we_a'))).toBe('busy');
      expect(await d.requestReplay(replayRequestOf('rp_3', 'we_b', { requestedAt: at(70_000) }))).toBe('requested');
      expect((await d.openReplays()).map((r) => r.id)).toEqual(['rp_1', 'rp_3']);
      const running = replayRequestOf('rp_1', 'we_a', { status: 'running', position: 42, scanned: 40, queued: 7 });
      await d.updateReplay(running);
      expect(await d.getReplay('we_a', 'rp_1')).toEqual(running);
      expect(await d.getReplay('we_b', 'rp_1')).toBeUndefined();
      const done = { ...running, status: 'done' as const, finishedAt: at(90_000) };
      await d.updateReplay(done);
      expect((await d.openReplays()).map((r) => r.id)).toEqual(['rp_3']);
      expect(await d.requestReplay(replayRequestOf('rp_4', 'we_a'))).toBe('requested');
    });

    it('prunes what was settled, attempted or finished before the time; pending messages stay', async () => {
      const d = await start();
      await d.enqueue([queued('we_a', 1), queued('we_a', 2), queued('we_a', 3)], T0);
      await d.settle('we_a', 'ev-1', 'delivered', 1, at(1000));
      await d.settle('we_a', 'ev-2', 'failed', 1, at(5000));
      await d.recordAttempt(attempt('we_a', 'ev-1', 1, { at: at(1000) }));
      await d.recordAttempt(attempt('we_a', 'ev-2', 1, { at: at(5000) }));
      await d.requestReplay(replayRequestOf('rp_1', 'we_a'));
      await d.updateReplay(replayRequestOf('rp_1', 'we_a', { status: 'done', finishedAt: at(1000) }));
      await d.requestReplay(replayRequestOf('rp_2', 'we_a'));
      expect(await d.prune(at(2000))).toEqual({ messages: 1, attempts: 1, replays: 1 });
      expect((await d.messages('we_a', { limit: 10 })).map((m) => m.eventId)).toEqual(['ev-3', 'ev-2']);
      expect((await d.attempts('we_a', { limit: 10 })).map((a) => a.eventId)).toEqual(['ev-2']);
      expect(await d.getReplay('we_a', 'rp_1')).toBeUndefined();
      expect(await d.getReplay('we_a', 'rp_2')).toBeDefined();
      await d.enqueue([queued('we_a', 1)], at(3000));
      expect((await d.head('we_a'))?.eventId).toBe('ev-1');
    });

    it('forgets a deleted endpoint’s messages, attempts and replays, and no other endpoint’s', async () => {
      const d = await start();
      await d.enqueue([queued('we_a', 1), queued('we_b', 1)], T0);
      await d.recordAttempt(attempt('we_a', 'ev-1', 1));
      await d.requestReplay(replayRequestOf('rp_1', 'we_a'));
      await d.dropEndpoint('we_a');
      expect(await d.head('we_a')).toBeUndefined();
      expect(await d.messages('we_a', { limit: 10 })).toEqual([]);
      expect(await d.attempts('we_a', { limit: 10 })).toEqual([]);
      expect(await d.openReplays()).toEqual([]);
      expect((await d.head('we_b'))?.eventId).toBe('ev-1');
      await expect(d.ping()).resolves.toBeUndefined();
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
