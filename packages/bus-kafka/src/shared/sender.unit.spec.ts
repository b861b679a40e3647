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

test('with a linger, the sends within it go in one request, and none waits longer', async () => {
  jest.useFakeTimers();
  const batches: string[][] = [];
  const sender = createSender(
    async (records) => {
      batches.push(records.map((r) => String(r.record.key)));
    },
    { lingerMs: 5 },
  );
  const a = sender.send('t', record('a'));
  await jest.advanceTimersByTimeAsync(3);
  expect(batches).toEqual([]);
  const b = sender.send('t', record('b'));
  await jest.advanceTimersByTimeAsync(2);
  await Promise.all([a, b]);
  expect(batches).toEqual([['a', 'b']]);
  const c = sender.send('t', record('c'));
  await jest.advanceTimersByTimeAsync(5);
  await c;
  expect(batches).toEqual([['a', 'b'], ['c']]);
});
