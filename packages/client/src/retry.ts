/**
 * When a failed attempt is tried again, and after how long. Only failures that say nothing about
 * the request itself are retried: no answer at all, a timeout, 408, 409 (the Idempotency-Key is
 * held by a request still running), 429 and the 5xx statuses a restart or an overloaded server
 * answer. A business error or any other 4xx would come back the same.
 */

export interface RetryOptions {
  /** Requests per call, the first included; 1 turns retries off. Default 3. */
  maxAttempts?: number;
  /** The delay before the first retry; it doubles with every further one, with jitter. Default 250 ms. */
  baseDelayMs?: number;
  /** The longest delay backoff reaches. Default 5 000 ms. */
  maxDelayMs?: number;
  /** The longest Retry-After the client waits for; a 429 asking for more ends the call with it. Default 60 000 ms. */
  maxRetryAfterMs?: number;
}

export type RetryPolicy = Required<RetryOptions>;

export const DEFAULT_RETRY: RetryPolicy = {
  maxAttempts: 3,
  baseDelayMs: 250,
  maxDelayMs: 5_000,
  maxRetryAfterMs: 60_000,
};

const RETRY_STATUSES = new Set([408, 409, 429, 500, 502, 503, 504]);

export const retryableStatus = (status: number): boolean => RETRY_STATUSES.has(status);

/**
 * Exponential backoff with "equal jitter": half the doubled delay for sure, the other half at
 * random, so clients that failed together do not all come back together.
 */
export function backoffMs(retry: number, policy: RetryPolicy, random: () => number = Math.random): number {
  const ceiling = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** (retry - 1));
  return Math.round(ceiling / 2 + (random() * ceiling) / 2);
}

/** Retry-After as milliseconds from now: delay-seconds or an HTTP date; undefined when absent or unreadable. */
export function retryAfterMs(header: string | null, nowMs: number): number | undefined {
  if (header === null) return undefined;
  const value = header.trim();
  if (/^\d+$/.test(value)) return Number(value) * 1000;
  // Every HTTP date format starts with the day's name; Date.parse alone would take "-1" for a year.
  const date = /^(Mon|Tue|Wed|Thu|Fri|Sat|Sun)/.test(value) ? Date.parse(value) : Number.NaN;
  return Number.isNaN(date) ? undefined : Math.max(0, date - nowMs);
}

/** The policy of a client's retry options, the defaults filled in (one attempt at the least). */
export const retryPolicyOf = (retry: RetryOptions = {}): RetryPolicy => ({
  maxAttempts: Math.max(1, retry.maxAttempts ?? DEFAULT_RETRY.maxAttempts),
  baseDelayMs: retry.baseDelayMs ?? DEFAULT_RETRY.baseDelayMs,
  maxDelayMs: retry.maxDelayMs ?? DEFAULT_RETRY.maxDelayMs,
  maxRetryAfterMs: retry.maxRetryAfterMs ?? DEFAULT_RETRY.maxRetryAfterMs,
});
