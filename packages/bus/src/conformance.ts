import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { BusRemoteError, BusTimeoutError, tombstone } from './port.ts';
import type { Bus, Message, Unsubscribe } from './port.ts';

export interface BusUnderTest {
  bus: Bus;
  /** Another instance on the same broker, standing for another process. */
  second?: Bus;
  cleanup: () => Promise<void>;
  /** Defaults to `parcel.deadletter.v1`. */
  deadLetterTopic?: string;
  /** When given, the suite checks the exact number of deliveries before dead-lettering. */
  maxDeliveries?: number;
}

export const TEST_MS = 60_000;
const run = randomUUID().slice(0, 8);
let counter = 0;
/** Fresh names per test, so a real broker's leftovers from other tests or runs never interfere. */
const fresh = (label: string) => `conformance.${label}.${run}.${(counter += 1)}`;

export function makeMessage(overrides: Partial<Message> = {}): Message {
  const id = overrides.id ?? randomUUID();
  return { id, key: id, type: 'ConformanceProbe', payload: {}, ...overrides };
}

/** Polls until `check` stops throwing (or returns something other than false). */
export async function eventually(check: () => unknown, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      if ((await check()) !== false) return;
      if (Date.now() > deadline) throw new Error(`condition not met within ${timeoutMs} ms`);
    } catch (error) {
      if (Date.now() > deadline) throw error;
    }
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/** A test given TEST_MS: on a real broker a group join alone takes seconds. */
export function slowIt(name: string, test: () => Promise<void>): void {
  it(name, test, TEST_MS);
}

const gate = () => Promise.withResolvers<void>();
const tick = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export function busConformance(name: string, make: () => Promise<BusUnderTest>): void {
  describe(`Bus conformance: ${name}`, () => {
    let ctx: BusUnderTest;
    const subscriptions: Unsubscribe[] = [];
    const track = async (subscription: Promise<Unsubscribe>) => {
      const unsubscribe = await subscription;
      subscriptions.push(unsubscribe);
      return unsubscribe;
    };
    const other = () => ctx.second ?? ctx.bus;

    beforeAll(async () => {
      ctx = await make();
    }, TEST_MS);
    afterAll(async () => {
      for (const unsubscribe of subscriptions) await unsubscribe();
      await ctx?.cleanup();
    }, TEST_MS);

    describe('request/reply', () => {
      slowIt('returns the reply of the handler, which sees the message intact', async () => {
        const topic = fresh('echo');
        let seen: Message | undefined;
        await track(
          ctx.bus.handleRequests(topic, async (message) => {
            seen = message;
            return { echoed: message.payload };
          }),
        );
        const message = makeMessage({
          payload: { n: 1, text: 'é' },
          headers: { traceparent: '00-abc-def-01', 'x-extra': 'yes' },
        });
        await expect(ctx.bus.request(topic, message, { timeoutMs: 20_000 })).resolves.toEqual({
          echoed: { n: 1, text: 'é' },
        });
        expect(seen).toEqual(message);
      });

      slowIt('gets the reply from a handler in another instance', async () => {
        const topic = fresh('remote');
        await track(other().handleRequests(topic, async (message) => `served ${message.id}`));
        const message = makeMessage();
        await expect(ctx.bus.request(topic, message, { timeoutMs: 20_000 })).resolves.toBe(`served ${message.id}`);
      });

      slowIt('rejects with BusRemoteError carrying the message of what the handler threw', async () => {
        const topic = fresh('throws');
        await track(
          ctx.bus.handleRequests(topic, async () => {
            throw new Error('reference already used');
          }),
        );
        const reply = ctx.bus.request(topic, makeMessage(), { timeoutMs: 20_000 });
        await expect(reply).rejects.toBeInstanceOf(BusRemoteError);
        await expect(reply).rejects.toThrow('reference already used');
      });

      slowIt('times out with BusTimeoutError when nobody handles the topic', async () => {
        await expect(ctx.bus.request(fresh('nobody'), makeMessage(), { timeoutMs: 300 })).rejects.toBeInstanceOf(
          BusTimeoutError,
        );
      });

      slowIt('times out with BusTimeoutError when the handler is too slow', async () => {
        const topic = fresh('slow');
        const release = gate();
        const started = gate();
        await track(
          ctx.bus.handleRequests(topic, async () => {
            started.resolve();
            await release.promise;
            return 'late';
          }),
        );
        // The first request proves the handler is live, so the second one times out for being slow.
        const warm = ctx.bus.request(topic, makeMessage(), { timeoutMs: 20_000 }).catch((error: unknown) => error);
        try {
          await started.promise;
          await expect(ctx.bus.request(topic, makeMessage(), { timeoutMs: 300 })).rejects.toBeInstanceOf(
            BusTimeoutError,
          );
        } finally {
          release.resolve();
        }
        await warm;
      });

      slowIt('answers 100 concurrent requests each with its own reply', async () => {
        const topic = fresh('correlation');
        await track(
          ctx.bus.handleRequests(topic, async (message) => {
            await tick(Math.random() * 20);
            return { id: message.id, n: (message.payload as { n: number }).n };
          }),
        );
        const messages = Array.from({ length: 100 }, (_, n) => makeMessage({ payload: { n } }));
        const replies = await Promise.all(
          messages.map((message) => ctx.bus.request(topic, message, { timeoutMs: 30_000 })),
        );
        expect(replies).toEqual(messages.map((message, n) => ({ id: message.id, n })));
      });

      slowIt('handles one key at a time in arrival order while different keys overlap', async () => {
        const topic = fresh('serial');
        const keys = ['acct-1', 'acct-2', 'acct-3', 'acct-4', 'acct-5', 'acct-6'];
        const active = new Map<string, number>();
        const order = new Map<string, number[]>();
        let running = 0;
        let maxRunning = 0;
        let maxPerKey = 0;
        await track(
          ctx.bus.handleRequests(topic, async (message) => {
            const now = (active.get(message.key) ?? 0) + 1;
            active.set(message.key, now);
            maxPerKey = Math.max(maxPerKey, now);
            maxRunning = Math.max(maxRunning, (running += 1));
            order.set(message.key, [...(order.get(message.key) ?? []), (message.payload as { seq: number }).seq]);
            await tick(30);
            active.set(message.key, (active.get(message.key) ?? 1) - 1);
            running -= 1;
            return null;
          }),
        );
        const sends = keys.flatMap((key) => [0, 1, 2, 3].map((seq) => ({ key, seq })));
        await Promise.all(
          sends.map(({ key, seq }) =>
            ctx.bus.request(topic, makeMessage({ key, payload: { seq } }), { timeoutMs: 30_000 }),
          ),
        );
        expect(maxPerKey).toBe(1);
        expect(maxRunning).toBeGreaterThan(1);
        for (const key of keys) expect(order.get(key)).toEqual([0, 1, 2, 3]);
      });

      slowIt('stops serving once the handler unsubscribes', async () => {
        const topic = fresh('unserve');
        const unsubscribe = await ctx.bus.handleRequests(topic, async () => 'here');
        await expect(ctx.bus.request(topic, makeMessage(), { timeoutMs: 20_000 })).resolves.toBe('here');
        await unsubscribe();
        await expect(ctx.bus.request(topic, makeMessage(), { timeoutMs: 500 })).rejects.toBeInstanceOf(BusTimeoutError);
      });
    });

    describe('publish/subscribe', () => {
      slowIt('delivers every message once to each group, to one member within a group, intact', async () => {
        const topic = fresh('fanout');
        const audit: Message[] = [];
        const first: Message[] = [];
        const second: Message[] = [];
        const auditGroup = fresh('audit');
        const workers = fresh('workers');
        await track(ctx.bus.subscribe(topic, auditGroup, async (message) => void audit.push(message)));
        await track(ctx.bus.subscribe(topic, workers, async (message) => void first.push(message)));
        await track(other().subscribe(topic, workers, async (message) => void second.push(message)));
        const messages = Array.from({ length: 10 }, (_, n) =>
          makeMessage({ payload: { n }, headers: { traceparent: `00-${n}-01` } }),
        );
        for (const message of messages) await ctx.bus.publish(topic, message);
        const ids = messages.map((message) => message.id).sort();
        const idsOf = (received: Message[]) => received.map((message) => message.id).sort();
        await eventually(() => expect(idsOf(audit)).toEqual(ids));
        await eventually(() => expect(idsOf([...first, ...second])).toEqual(ids));
        expect([...audit].sort((a, b) => a.id.localeCompare(b.id))).toEqual(
          [...messages].sort((a, b) => a.id.localeCompare(b.id)),
        );
      });

      slowIt('delivers a tombstone (payload null) intact, after the earlier message of its key', async () => {
        const topic = fresh('tombstone');
        const seen: Message[] = [];
        await track(ctx.bus.subscribe(topic, fresh('compacting'), async (message) => void seen.push(message)));
        const value = makeMessage({ key: 'parcel-1', payload: { name: 'Ada' } });
        const gone = tombstone('parcel-1', randomUUID(), 'Erased', { traceparent: '00-gone-01' });
        await ctx.bus.publish(topic, value);
        await ctx.bus.publish(topic, gone);
        await eventually(() => expect(seen).toHaveLength(2));
        expect(seen).toEqual([value, gone]);
        expect(seen[1]!.payload).toBeNull();
      });

      slowIt('redelivers a message whose handler threw', async () => {
        const topic = fresh('retry');
        const seen: string[] = [];
        await track(
          ctx.bus.subscribe(topic, fresh('flaky'), async (message) => {
            seen.push(message.id);
            if (seen.length === 1) throw new Error('transient');
          }),
        );
        const message = makeMessage();
        await ctx.bus.publish(topic, message);
        await eventually(() => expect(seen).toEqual([message.id, message.id]));
      });

      slowIt('dead-letters a message after the delivery limit, with the reason', async () => {
        const topic = fresh('poison');
        const deadLetters: Message[] = [];
        let deliveries = 0;
        await track(
          ctx.bus.subscribe(
            ctx.deadLetterTopic ?? 'parcel.deadletter.v1',
            fresh('dlq'),
            async (message) => void deadLetters.push(message),
          ),
        );
        await track(
          ctx.bus.subscribe(topic, fresh('broken'), async () => {
            deliveries += 1;
            throw new Error('cannot handle this');
          }),
        );
        const message = makeMessage({ payload: { poison: true }, headers: { traceparent: '00-poison-01' } });
        await ctx.bus.publish(topic, message);
        await eventually(() => expect(deadLetters.some((dead) => dead.id === message.id)).toBe(true));
        const dead = deadLetters.find((candidate) => candidate.id === message.id);
        expect(dead?.payload).toEqual({ poison: true });
        expect(dead?.headers).toMatchObject({ traceparent: '00-poison-01', 'x-original-topic': topic });
        expect(dead?.headers?.['x-dead-letter-reason']).toContain('cannot handle this');
        if (ctx.maxDeliveries) expect(deliveries).toBe(ctx.maxDeliveries);
        else expect(deliveries).toBeGreaterThan(1);
      });

      slowIt('keeps per-key order within a group across 200 messages', async () => {
        const topic = fresh('ordered');
        const group = fresh('ordered');
        const received = new Map<string, number[]>();
        const handler = async (message: Message) => {
          await tick(Math.random() * 3);
          received.set(message.key, [...(received.get(message.key) ?? []), (message.payload as { seq: number }).seq]);
        };
        await track(ctx.bus.subscribe(topic, group, handler));
        await track(other().subscribe(topic, group, handler));
        const keys = ['p-1', 'p-2', 'p-3', 'p-4', 'p-5'];
        for (let seq = 0; seq < 200; seq += 1)
          await ctx.bus.publish(topic, makeMessage({ key: keys[seq % keys.length], payload: { seq } }));
        const expected = (key: string) => Array.from({ length: 40 }, (_, n) => n * keys.length + keys.indexOf(key));
        await eventually(() => keys.forEach((key) => expect(received.get(key)).toEqual(expected(key))));
      });

      slowIt('stops delivering to a handler once it unsubscribes', async () => {
        const topic = fresh('unsubscribe');
        const leaving: string[] = [];
        const witness: string[] = [];
        const unsubscribe = await ctx.bus.subscribe(
          topic,
          fresh('leaving'),
          async (message) => void leaving.push(message.id),
        );
        await track(ctx.bus.subscribe(topic, fresh('witness'), async (message) => void witness.push(message.id)));
        const before = makeMessage({ key: 'same' });
        await ctx.bus.publish(topic, before);
        await eventually(() => expect(leaving).toEqual([before.id]));
        await unsubscribe();
        const after = makeMessage({ key: 'same' });
        await ctx.bus.publish(topic, after);
        await eventually(() => expect(witness).toEqual([before.id, after.id]));
        await tick(200);
        expect(leaving).toEqual([before.id]);
      });
    });

    describe('lifecycle', () => {
      slowIt('pings while open; close rejects pending requests and every later call', async () => {
        const own = await make();
        try {
          await expect(own.bus.ping()).resolves.toBeUndefined();
          const topic = fresh('closing');
          const release = gate();
          const started = gate();
          await own.bus.handleRequests(topic, async () => {
            started.resolve();
            await release.promise;
          });
          const pending = own.bus.request(topic, makeMessage(), { timeoutMs: 30_000 });
          pending.catch(() => undefined);
          await started.promise;
          await own.bus.close();
          release.resolve();
          await expect(pending).rejects.toThrow(/closed/);
          await expect(pending).rejects.not.toBeInstanceOf(BusTimeoutError);
          await expect(own.bus.ping()).rejects.toThrow(/closed/);
          await expect(own.bus.publish(topic, makeMessage())).rejects.toThrow(/closed/);
          await expect(own.bus.request(topic, makeMessage(), { timeoutMs: 1_000 })).rejects.toThrow(/closed/);
          await expect(own.bus.subscribe(topic, fresh('late'), async () => undefined)).rejects.toThrow(/closed/);
          await expect(own.bus.handleRequests(topic, async () => undefined)).rejects.toThrow(/closed/);
        } finally {
          await own.cleanup();
        }
      });
    });
  });
}
