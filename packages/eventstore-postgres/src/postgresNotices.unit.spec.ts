/** When commits notify: at once after a quiet spell, then by the next commit after the window, or by a notification of their own. */
import { afterEach, beforeEach, expect, jest, test } from '@jest/globals';
import { commitNotices } from './postgresNotices.ts';

beforeEach(() => {
  jest.useFakeTimers({ now: 1_000_000 });
});
afterEach(() => {
  jest.useRealTimers();
});

/** A store's notices over a window of 50 ms; `sent` counts the notifications of their own. */
function notices() {
  let sent = 0;
  const n = commitNotices(async () => {
    sent += 1;
  }, 50);
  /** One commit: whether it notified in its own transaction. */
  const commit = (): boolean => {
    const inline = n.inline();
    n.committed(inline);
    return inline;
  };
  return { n, commit, sent: () => sent };
}

test('the first commit notifies; those inside the window stay quiet and are announced by the next commit after it', () => {
  const { commit, sent } = notices();
  expect(commit()).toBe(true);
  jest.advanceTimersByTime(10);
  expect(commit()).toBe(false);
  jest.advanceTimersByTime(30);
  expect(commit()).toBe(false);
  jest.advanceTimersByTime(20);
  expect(commit()).toBe(true);
  // Announced by that commit: nothing of its own follows.
  jest.advanceTimersByTime(500);
  expect(sent()).toBe(0);
});

test('a quiet commit with no commit after it gets a notification of its own one window after the window', async () => {
  const { commit, sent } = notices();
  commit();
  jest.advanceTimersByTime(10);
  expect(commit()).toBe(false);
  await jest.advanceTimersByTimeAsync(89);
  expect(sent()).toBe(0);
  await jest.advanceTimersByTimeAsync(1);
  expect(sent()).toBe(1);
  // That notification starts a window of its own.
  expect(commit()).toBe(false);
});

test('a write that failed notified no one: the next commit notifies in its own transaction', () => {
  const { n, commit } = notices();
  expect(n.inline()).toBe(true); // its transaction rolled back: no committed()
  jest.advanceTimersByTime(10);
  expect(commit()).toBe(true);
});

test('with no window every commit notifies; closing sends what is owed', async () => {
  const every = commitNotices(async () => undefined, 0);
  expect([every.inline(), every.inline()]).toEqual([true, true]);
  const { n, commit, sent } = notices();
  commit();
  commit();
  await n.close();
  expect(sent()).toBe(1);
  await jest.advanceTimersByTimeAsync(500);
  expect(sent()).toBe(1);
});
