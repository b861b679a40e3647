/**
 * The client SDK, retries: only what is safe to repeat is retried (reads, and POSTs that
 * carry an Idempotency-Key, which mutating calls get by default), on network errors, timeouts,
 * 408, 409, 429 and 5xx, with exponential backoff and jitter, or after Retry-After; never on a
 * business error.
 */
import { createHash } from 'node:crypto';
import { InterfaceBClient } from '@parcel-logistics/client';
import type { ClientOptions, FetchLike } from '@parcel-logistics/client';
import { OTHER } from '../support/client.ts';
import { startTestStack } from '../support/stack.ts';
import type { TestStack } from '../support/stack.ts';
import { connectionLost, optionsFor, order, recordingFetch } from './support.ts';

let stack: TestStack;
beforeAll(async () => {
  stack = await startTestStack();
});
afterAll(() => stack.destroy());

/** A client whose waits are recorded, not slept. */
function clientWith(extra: Partial<ClientOptions>, target: TestStack = stack) {
  const slept: number[] = [];
  const client = new InterfaceBClient(
    optionsFor(target, {
      sleep: async (ms) => {
        slept.push(ms);
      },
      ...extra,
    }),
  );
  return { client, slept };
}

const CREATE = '/v1/openapi/order/create-order';

describe('mutating calls carry an Idempotency-Key, so their retries are safe', () => {
  test('create-order whose answer is lost after the server handled it: retried with the same key, replayed, one parcel, success', async () => {
    const recorder = recordingFetch({
      after: (_sent, index) => {
        if (index === 0) throw connectionLost();
      },
    });
    const { client, slept } = clientWith({ fetch: recorder.fetch });
    const body = order();
    const result = await client.createOrder(body);

    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.meta).toMatchObject({ attempts: 2, replayed: true });
    const keys = recorder.to(CREATE).map((s) => s.headers['idempotency-key']);
    expect(keys).toEqual([result.meta.idempotencyKey, result.meta.idempotencyKey]);
    expect(slept).toHaveLength(1);
    // One parcel: the reference names the number the caller got, and a new attempt at it is refused.
    expect(await client.getBarcode(body.custom_tracking_num)).toMatchObject({
      ok: true,
      data: { barcode: result.data.wmg_tracking_num },
    });
    const again = await client.createOrder(body);
    expect(again.ok || again.error.message).toBe(`custom_tracking_num (${body.custom_tracking_num}) already exist`);
  });

  test('a key the caller gives is sent on every attempt', async () => {
    const recorder = recordingFetch({
      after: (_sent, index) => {
        if (index === 0) throw connectionLost();
      },
    });
    const { client } = clientWith({ fetch: recorder.fetch });
    const key = `caller-${Date.now()}`;
    const result = await client.createOrder(order(), { idempotencyKey: key });
    expect(result.ok && result.meta).toMatchObject({ attempts: 2, replayed: true, idempotencyKey: key });
    expect(recorder.sent.map((s) => s.headers['idempotency-key'])).toEqual([key, key]);
  });

  test('opted out (idempotencyKey: false), a lost answer is not retried: the failure comes back although the parcel exists', async () => {
    const recorder = recordingFetch({
      after: (_sent, index) => {
        if (index === 0) throw connectionLost();
      },
    });
    const { client } = clientWith({ fetch: recorder.fetch });
    const body = order();
    const result = await client.createOrder(body, { idempotencyKey: false });
    expect(result).toEqual({
      ok: false,
      error: {
        kind: 'network',
        code: null,
        message: 'network error: fetch failed (ECONNRESET)',
        status: null,
        data: null,
        attempts: 1,
        cause: expect.any(TypeError),
      },
    });
    expect(recorder.sent).toHaveLength(1);
    expect(recorder.sent[0]!.headers['idempotency-key']).toBeUndefined();
    expect((await client.getBarcode(body.custom_tracking_num)).ok).toBe(true);
  });
});

describe('reads are retried as they are', () => {
  test('a GET after a network error: retried once, signed afresh (a new seed and its token), after a backoff with jitter', async () => {
    const recorder = recordingFetch({
      before: (_sent, index) => {
        if (index === 0) throw connectionLost();
        return undefined;
      },
    });
    let tick = 0;
    const base = stack.clock.now().getTime();
    const { client, slept } = clientWith({ fetch: recorder.fetch, now: () => base + 1000 * tick++ });
    const result = await client.getStations('238858');
    expect(result.ok && result.meta.attempts).toBe(2);
    const seeds = recorder.sent.map((s) => s.headers['x-auth-seed']!);
    expect(new Set(seeds).size).toBe(2);
    for (const sent of recorder.sent) {
      expect(sent.headers['x-auth-token']).toBe(
        createHash('md5').update(`demodemo-secret${sent.headers['x-auth-seed']}`).digest('hex'),
      );
    }
    // The first retry waits half the base delay (250 ms) for sure and up to all of it.
    expect(slept).toHaveLength(1);
    expect(slept[0]).toBeGreaterThanOrEqual(125);
    expect(slept[0]).toBeLessThanOrEqual(250);
  });

  test('a read-only POST (query-multi-status) after a network error: retried without an Idempotency-Key', async () => {
    const recorder = recordingFetch({
      before: (_sent, index) => {
        if (index === 0) throw connectionLost();
        return undefined;
      },
    });
    const { client } = clientWith({ fetch: recorder.fetch });
    const result = await client.queryMultiStatus(['PXB3X6H0NEVAZ2J9R9']);
    expect(result.ok && result.meta.attempts).toBe(2);
    expect(recorder.sent.map((s) => s.headers['idempotency-key'])).toEqual([undefined, undefined]);
  });

  test('gives up after maxAttempts, the delays doubling: the last failure comes back with its attempt count', async () => {
    const recorder = recordingFetch({
      before: () => {
        throw connectionLost();
      },
    });
    const { client, slept } = clientWith({ fetch: recorder.fetch, retry: { maxAttempts: 4, baseDelayMs: 100 } });
    const result = await client.getStations('238858');
    expect(result.ok || result.error).toMatchObject({ kind: 'network', attempts: 4 });
    expect(recorder.sent).toHaveLength(4);
    expect(slept).toHaveLength(3);
    slept.forEach((ms, i) => {
      expect(ms).toBeGreaterThanOrEqual(50 * 2 ** i);
      expect(ms).toBeLessThanOrEqual(100 * 2 ** i);
    });
  });

  test('an attempt that gets no answer within timeoutMs is abandoned and retried', async () => {
    /** A fetch whose first request never gets an answer: it ends only when aborted. */
    const silentFirst = (): FetchLike => {
      let calls = 0;
      return (url, init) => {
        if (++calls > 1) return fetch(url, init);
        return new Promise((_resolve, reject) =>
          init.signal?.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError'))),
        );
      };
    };
    const { client } = clientWith({ fetch: silentFirst(), timeoutMs: 50 });
    const result = await client.getStations('238858');
    expect(result.ok && result.meta.attempts).toBe(2);
    const { client: once } = clientWith({ fetch: silentFirst(), timeoutMs: 50, retry: { maxAttempts: 1 } });
    const timedOut = await once.getStations('238858');
    expect(timedOut.ok || timedOut.error).toMatchObject({
      kind: 'network',
      message: 'no answer within 50 ms',
      attempts: 1,
    });
  });

  test('a call the caller aborts sends nothing more and says so', async () => {
    const controller = new AbortController();
    controller.abort();
    const recorder = recordingFetch();
    const { client } = clientWith({ fetch: recorder.fetch });
    const result = await client.getStations('238858', { signal: controller.signal });
    expect(result.ok || result.error).toMatchObject({ kind: 'network', message: 'aborted by the caller', attempts: 0 });
    expect(recorder.sent).toHaveLength(0);
  });
});

describe('which failures are retried', () => {
  const envelope = (status: number) =>
    new Response(JSON.stringify({ code: 1, message: `status ${status}`, data: [] }), {
      status,
      headers: { 'content-type': 'application/json' },
    });

  test.each([408, 409, 429, 500, 502, 503, 504])('HTTP %i is retried', async (status) => {
    const recorder = recordingFetch({ before: (_sent, index) => (index === 0 ? envelope(status) : undefined) });
    const { client } = clientWith({ fetch: recorder.fetch });
    const result = await client.getStations('238858');
    expect(result.ok && result.meta.attempts).toBe(2);
    expect(recorder.sent.map((s) => s.status)).toEqual([status, 200]);
  });

  test.each([400, 401, 403, 404, 413])('HTTP %i is not retried: a system error with the envelope', async (status) => {
    const recorder = recordingFetch({ before: () => envelope(status) });
    const { client } = clientWith({ fetch: recorder.fetch });
    const result = await client.getStations('238858');
    expect(result).toEqual({
      ok: false,
      error: { kind: 'http', code: 1, message: `status ${status}`, status, data: [], attempts: 1 },
    });
  });

  test("an answer that is not the envelope (a proxy's page) is a system error with the body as data", async () => {
    const recorder = recordingFetch({ before: () => new Response('<html>Bad Gateway</html>', { status: 502 }) });
    const { client } = clientWith({ fetch: recorder.fetch, retry: { maxAttempts: 2 } });
    const result = await client.getStations('238858');
    expect(result).toEqual({
      ok: false,
      error: {
        kind: 'http',
        code: null,
        message: "HTTP 502: the answer is not the interface's envelope",
        status: 502,
        data: '<html>Bad Gateway</html>',
        attempts: 2,
      },
    });
  });

  test('a business error is never retried: one request, the error as the server wrote it', async () => {
    const recorder = recordingFetch();
    const { client, slept } = clientWith({ fetch: recorder.fetch, retry: { maxAttempts: 5 } });
    const result = await client.createOrder(order({ recipient_country: 'ZZ' }));
    expect(result.ok || result.error).toMatchObject({
      kind: 'business',
      message: 'recipient_country(ZZ) not allow',
      attempts: 1,
    });
    expect(recorder.sent).toHaveLength(1);
    expect(slept).toEqual([]);
  });
});

describe('429 Too many requests (PARCEL_RATE_LIMIT_RPS=1, PARCEL_RATE_LIMIT_BURST=1)', () => {
  let limited: TestStack;
  beforeAll(async () => {
    limited = await startTestStack({ PARCEL_RATE_LIMIT_RPS: '1', PARCEL_RATE_LIMIT_BURST: '1' });
  });
  afterAll(() => limited.destroy());

  test('the client waits what Retry-After says, then succeeds', async () => {
    const recorder = recordingFetch();
    const slept: number[] = [];
    // The stack's clock stands still; the wait moves it on, as time would.
    const client = new InterfaceBClient(
      optionsFor(limited, {
        fetch: recorder.fetch,
        sleep: async (ms) => {
          slept.push(ms);
          limited.clock.advance(ms);
        },
      }),
    );
    expect((await client.getStations('238858')).ok).toBe(true);
    const result = await client.getStations('238858');
    expect(result.ok && result.meta.attempts).toBe(2);
    expect(recorder.sent.map((s) => s.status)).toEqual([200, 429, 200]);
    expect(slept).toEqual([1000]);
  });

  test('a Retry-After longer than maxRetryAfterMs ends the call with the 429', async () => {
    const { client, slept } = clientWith({ ...OTHER, retry: { maxRetryAfterMs: 500 } }, limited);
    expect((await client.getStations('238858')).ok).toBe(true);
    const result = await client.getStations('238858');
    expect(result).toEqual({
      ok: false,
      error: { kind: 'http', code: 1, message: 'Too many requests', status: 429, data: [], attempts: 1 },
    });
    expect(slept).toEqual([]);
  });
});
