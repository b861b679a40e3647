/** The sender: one produce request in flight, what is sent meanwhile goes in the next, and a linger gathers sends. */
import { afterEach, expect, jest, test } from '@jest/globals';
import { createSender } from './sender.ts';
import type { Outgoing } from './sender.ts';

const record = (key: string) => ({ key, value: Buffer.from(key), headers: {} }) as unknown as Outgoing['record'];
afterEach(() => {
  jest.useRealTimers();
});

test('sends of the same tick go in one request; a send during a request goes in the next', async () => {
  const batches: string[][] = [];
  let release: () => void = () => undefined;
  const sender = createSender(async (records) => {
    batches.push(records.map((r) => String(r.record.key)));
    if (batches.length === 1) await new Promise<void>((resolve) => (release = resolve));
  });
  const first = [sender.send('t', record('a')), sender.send('t', record('b'))];
  await Promise.resolve();
  await Promise.resolve();
  const later = sender.send('t', record('c'));
  release();
  await Promise.all([...first, later]);
  expect(batches).toEqual([['a', 'b'], ['c']]);
});

/** A sender whose produce requests are recorded, as the keys of their records, at the time they leave. */
function recorded(lingerMs: number) {
  const batches: { at: number; keys: string[] }[] = [];
  const sender = createSender(
    async (records) => {
      batches.push({ at: Date.now(), keys: records.map((r) => String(r.record.key)) });
    },
    { lingerMs },
  );
  return { batches, sender };
}

test('with a linger, a send that comes alone goes at once', async () => {
  jest.useFakeTimers({ now: 0 });
  const { batches, sender } = recorded(5);
  const a = sender.send('t', record('a'));
  await jest.advanceTimersByTimeAsync(0);
  await a;
  expect(batches).toEqual([{ at: 0, keys: ['a'] }]);
  // A second one a second later comes alone too.
  await jest.advanceTimersByTimeAsync(1000);
  await sender.send('t', record('b'));
  expect(batches).toEqual([
    { at: 0, keys: ['a'] },
    { at: 1000, keys: ['b'] },
  ]);
});

test('while sends come faster than the linger, the sends within it go in one request, and none waits longer', async () => {
  jest.useFakeTimers({ now: 0 });
  const { batches, sender } = recorded(5);
  await sender.send('t', record('a'));
  await jest.advanceTimersByTimeAsync(1);
  // 1 ms after the last: sends come fast, so this one waits for others.
  const b = sender.send('t', record('b'));
  await jest.advanceTimersByTimeAsync(3);
  const c = sender.send('t', record('c'));
  await jest.advanceTimersByTimeAsync(1);
  expect(batches).toEqual([{ at: 0, keys: ['a'] }]);
  await jest.advanceTimersByTimeAsync(1);
  await Promise.all([b, c]);
  expect(batches).toEqual([
    { at: 0, keys: ['a'] },
    { at: 6, keys: ['b', 'c'] },
  ]);
  // After a quiet spell, a send goes at once again.
  await jest.advanceTimersByTimeAsync(1000);
  await sender.send('t', record('d'));
  expect(batches.at(-1)).toEqual({ at: 1006, keys: ['d'] });
});

test('a send that waited behind a request in flight waits only what is left of its linger', async () => {
  jest.useFakeTimers({ now: 0 });
  const batches: { at: number; keys: string[] }[] = [];
  let release: () => void = () => undefined;
  const sender = createSender(
    async (records) => {
      batches.push({ at: Date.now(), keys: records.map((r) => String(r.record.key)) });
      if (batches.length === 2) await new Promise<void>((resolve) => (release = resolve));
    },
    { lingerMs: 5 },
  );
  await sender.send('t', record('a'));
  await jest.advanceTimersByTimeAsync(1);
  // Sends come fast: b lingers 5 ms, and its request stays in flight.
  const b = sender.send('t', record('b'));
  await jest.advanceTimersByTimeAsync(5);
  expect(batches.at(-1)).toEqual({ at: 6, keys: ['b'] });
  await jest.advanceTimersByTimeAsync(1);
  const c = sender.send('t', record('c'));
  await jest.advanceTimersByTimeAsync(3);
  // c has waited 3 ms of its 5 behind b's request: 2 ms are left when that request is answered.
  release();
  await b;
  await jest.advanceTimersByTimeAsync(1);
  expect(batches).toHaveLength(2);
  await jest.advanceTimersByTimeAsync(1);
  await c;
  expect(batches.at(-1)).toEqual({ at: 12, keys: ['c'] });
});
