import { backoffMs, DEFAULT_RETRY, retryAfterMs } from './retry.ts';

describe('Retry-After: delay-seconds or an HTTP date (RFC 9110 10.2.3)', () => {
  const now = Date.parse('2026-11-22T06:05:09Z');

  test.each([
    ['delay-seconds', '3', 3000],
    ['delay-seconds with white space', ' 1 ', 1000],
    ['an HTTP date 5 s ahead', 'Sun, 22 Nov 2026 06:05:14 GMT', 5000],
    ['an HTTP date already past: no wait', 'Sun, 22 Nov 2026 06:05:00 GMT', 0],
  ])('%s', (_what, header, ms) => {
    expect(retryAfterMs(header, now)).toBe(ms);
  });

  test('absent or unreadable: undefined, and backoff decides', () => {
    expect(retryAfterMs(null, now)).toBeUndefined();
    expect(retryAfterMs('soon', now)).toBeUndefined();
    expect(retryAfterMs('-1', now)).toBeUndefined();
  });
});

describe('backoff: doubling from baseDelayMs up to maxDelayMs, half of it at random', () => {
  const policy = { ...DEFAULT_RETRY, baseDelayMs: 100, maxDelayMs: 1000 };

  test('the least and the most of each retry', () => {
    expect([1, 2, 3, 4].map((retry) => backoffMs(retry, policy, () => 0))).toEqual([50, 100, 200, 400]);
    expect([1, 2, 3, 4].map((retry) => backoffMs(retry, policy, () => 1))).toEqual([100, 200, 400, 800]);
  });

  test('capped at maxDelayMs however many retries', () => {
    expect(backoffMs(10, policy, () => 1)).toBe(1000);
    expect(backoffMs(10, policy, () => 0)).toBe(500);
  });
});
