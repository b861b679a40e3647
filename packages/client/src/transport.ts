/**
 * One call to the gateway: builds each attempt (authenticated afresh), reads the interface's
 * envelope into a Result, and retries what is safe to repeat. Both clients send through it.
 */
import { randomUUID } from 'node:crypto';
import type { paths } from './generated/openapi.ts';
import type { ApiError, Failure, Result } from './result.ts';
import { backoffMs, retryableStatus, retryAfterMs, retryPolicyOf } from './retry.ts';
import type { RetryOptions, RetryPolicy } from './retry.ts';

export type FetchLike = (url: string, init: RequestInit) => Promise<Response>;

export interface ClientOptions {
  /** Where the gateway listens, e.g. `http://localhost:8080`. */
  baseUrl: string;
  apiName: string;
  apiKey: string;
  retry?: RetryOptions;
  /** How long one attempt may take, answer body included. Default 30 000 ms. */
  timeoutMs?: number;
  /** Default: the global fetch. */
  fetch?: FetchLike;
  /** Waits between attempts. Default: a timer. */
  sleep?: (ms: number) => Promise<void>;
  /** The clock that seeds signatures and dates tokens, in milliseconds. Default: Date.now. */
  now?: () => number;
}

export interface CallOptions {
  /** Aborts the call: the attempt under way, and any retry. */
  signal?: AbortSignal;
}

export interface MutatingCallOptions extends CallOptions {
  /**
   * The Idempotency-Key the call sends on every attempt. Default: a new random UUID per call, which
   * makes its retries safe. `false` sends none, and the call is then never retried.
   */
  idempotencyKey?: string | false;
}

/** Interface A answers `{Code, Message, Data}`, interface B `{code, message, data}`. */
export type Envelope = 'A' | 'B';

export interface ApiRequest {
  method: 'GET' | 'POST';
  path: keyof paths;
  query?: Record<string, string>;
  body?: unknown;
  /** A CSV file sent as it is (`text/csv`), instead of a JSON body. */
  csv?: string;
  /** Sending it twice does no harm: a read, or a POST that carries an Idempotency-Key. */
  repeatable: boolean;
  idempotencyKey?: string;
  /** The headers that authenticate one attempt: a fresh signature, or the current bearer token. */
  auth(): Record<string, string>;
  signal?: AbortSignal;
}

/** A request as a client method builds it: everything but its authentication. */
export type Call = Omit<ApiRequest, 'auth'>;

/** The parts of a request a read sets: repeatable, no key. */
export const read = (options: CallOptions = {}): Pick<ApiRequest, 'repeatable' | 'signal'> => ({
  repeatable: true,
  signal: options.signal,
});

/** The parts of a request a mutation sets: its Idempotency-Key, decided once for every attempt. */
export function mutation(
  options: MutatingCallOptions = {},
): Pick<ApiRequest, 'repeatable' | 'idempotencyKey' | 'signal'> {
  const key = options.idempotencyKey === false ? undefined : (options.idempotencyKey ?? randomUUID());
  return { repeatable: key !== undefined, idempotencyKey: key, signal: options.signal };
}

/** A query of the parameters given: one left undefined is not sent, a number is sent as its text. */
export const queryOf = (params: Record<string, string | number | undefined>): Record<string, string> =>
  Object.fromEntries(
    Object.entries(params).flatMap(([name, value]) => (value === undefined ? [] : [[name, String(value)]])),
  );

/** A read by GET, its parameters in the query. */
export const getting = (path: Call['path'], query: Call['query'], options?: CallOptions): Call => ({
  method: 'GET',
  path,
  query,
  ...read(options),
});

/** A read by POST: the body asks, nothing changes, so it is sent again freely. */
export const asking = (path: Call['path'], body: unknown, options?: CallOptions): Call => ({
  method: 'POST',
  path,
  body,
  ...read(options),
});

/** A change by POST, with the Idempotency-Key that makes its retries safe. */
export const changing = (path: Call['path'], body: unknown, options?: MutatingCallOptions): Call => ({
  method: 'POST',
  path,
  body,
  ...mutation(options),
});

interface Parsed {
  code: number;
  message: string;
  data: unknown;
}

const timer = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

const failure = (error: ApiError): Failure => ({ ok: false, error });

/** No answer arrived. */
const lost = (message: string, attempts: number, cause?: unknown): Failure =>
  failure({
    kind: 'network',
    code: null,
    message,
    status: null,
    data: null,
    attempts,
    ...(cause === undefined ? {} : { cause }),
  });

export const ABORTED = 'aborted by the caller';

/** fetch's "fetch failed" says little; the error under it (ECONNREFUSED, bad port, ...) says what. */
function describe(cause: unknown): string {
  // Duck-typed: fetch's errors may come from another realm (a test runner's), where instanceof Error fails.
  if (typeof cause !== 'object' || cause === null || typeof (cause as Error).message !== 'string') return String(cause);
  const { message } = cause as Error;
  const inner = (cause as Error).cause as { code?: unknown; message?: unknown } | undefined;
  const why =
    typeof inner?.code === 'string' ? inner.code : typeof inner?.message === 'string' ? inner.message : undefined;
  return why ? `${message} (${why})` : message;
}

/**
 * One request with a deadline and the caller's signal: the answer and its text, or why none came
 * (the deadline or the network, worth a retry; the caller's abort, not).
 */
async function exchange(
  fetchFn: FetchLike,
  url: string,
  init: { method: string; headers: Record<string, string>; body: string | undefined },
  timeoutMs: number,
  signal: AbortSignal | undefined,
): Promise<
  | { answered: true; response: Response; text: string }
  | { answered: false; why: string; cause: unknown; retry: boolean }
> {
  // One controller for the timeout and the caller's signal (AbortSignal.any needs Node 20.3).
  const controller = new AbortController();
  let timedOut = false;
  const deadline = setTimeout(() => {
    timedOut = true;
    controller.abort();
  }, timeoutMs);
  const forward = () => controller.abort();
  signal?.addEventListener('abort', forward, { once: true });
  try {
    const response = await fetchFn(url, { ...init, signal: controller.signal });
    return { answered: true, response, text: await response.text() };
  } catch (cause) {
    if (timedOut) return { answered: false, why: `no answer within ${timeoutMs} ms`, cause, retry: true };
    if (signal?.aborted) return { answered: false, why: ABORTED, cause, retry: false };
    return { answered: false, why: `network error: ${describe(cause)}`, cause, retry: true };
  } finally {
    clearTimeout(deadline);
    signal?.removeEventListener('abort', forward);
  }
}

/** What both the client interfaces and the operator API call with: where, how long an attempt may take, how often. */
export type ConnectionOptions = Pick<ClientOptions, 'baseUrl' | 'retry' | 'timeoutMs' | 'fetch' | 'sleep'>;

/** An attempt's result, whether it is worth another, and how long the server asked to wait (Retry-After). */
export interface Attempted<R> {
  result: R;
  retry: boolean;
  retryAfterMs?: number;
}

/** The base URL, the deadline of one attempt and the retry policy, for each client. */
export class Connection {
  readonly #baseUrl: string;
  readonly #policy: RetryPolicy;
  readonly #timeoutMs: number;
  readonly #fetch: FetchLike;
  readonly #sleep: (ms: number) => Promise<void>;

  constructor(options: ConnectionOptions) {
    this.#baseUrl = options.baseUrl.replace(/\/+$/, '');
    this.#policy = retryPolicyOf(options.retry);
    this.#timeoutMs = options.timeoutMs ?? 30_000;
    this.#fetch = options.fetch ?? ((url, init) => fetch(url, init));
    this.#sleep = options.sleep ?? timer;
  }

  /** One attempt at `target` (a path with its query) under the base URL. */
  exchange(target: string, init: Parameters<typeof exchange>[2], signal: AbortSignal | undefined) {
    return exchange(this.#fetch, `${this.#baseUrl}${target}`, init, this.#timeoutMs, signal);
  }

  /**
   * Attempts until one succeeds or is not worth another, or the policy's attempts run out. Only a
   * repeatable request is sent again, and not when the server asks to wait longer than the policy allows.
   */
  async retrying<R extends { ok: boolean }>(
    repeatable: boolean,
    signal: AbortSignal | undefined,
    aborted: (attempts: number) => R,
    attempt: (attempts: number) => Promise<Attempted<R>>,
  ): Promise<R> {
    for (let attempts = 1; ; attempts++) {
      if (signal?.aborted) return aborted(attempts - 1);
      const { result, retry, retryAfterMs: asked } = await attempt(attempts);
      if (result.ok || !retry || !repeatable || attempts >= this.#policy.maxAttempts) return result;
      if (asked !== undefined && asked > this.#policy.maxRetryAfterMs) return result;
      await this.#sleep(asked ?? backoffMs(attempts, this.#policy));
    }
  }
}

export class Transport {
  readonly now: () => number;
  readonly #fields: readonly [string, string, string];
  readonly #connection: Connection;

  constructor(options: ClientOptions, envelope: Envelope) {
    this.now = options.now ?? Date.now;
    this.#fields = envelope === 'A' ? ['Code', 'Message', 'Data'] : ['code', 'message', 'data'];
    this.#connection = new Connection(options);
  }

  send<T>(request: ApiRequest): Promise<Result<T>> {
    return this.#connection.retrying(
      request.repeatable,
      request.signal,
      (attempts) => lost(ABORTED, attempts),
      (attempts) => this.#attempt<T>(request, attempts),
    );
  }

  async #attempt<T>(request: ApiRequest, attempt: number): Promise<Attempted<Result<T>>> {
    const headers: Record<string, string> = { accept: 'application/json', ...request.auth() };
    if (request.body !== undefined) headers['content-type'] = 'application/json';
    if (request.csv !== undefined) headers['content-type'] = 'text/csv';
    if (request.idempotencyKey !== undefined) headers['idempotency-key'] = request.idempotencyKey;
    const query = request.query ? `?${new URLSearchParams(request.query)}` : '';
    // Outside the try below: a body that cannot be serialised is the caller's bug, not a lost answer.
    const body = request.csv ?? (request.body === undefined ? undefined : JSON.stringify(request.body));

    const answer = await this.#connection.exchange(
      `${request.path}${query}`,
      { method: request.method, headers, body },
      request.signal,
    );
    if (!answer.answered) return { result: lost(answer.why, attempt, answer.cause), retry: answer.retry };
    return this.#read<T>(answer.response, answer.text, attempt, request.idempotencyKey);
  }

  #read<T>(
    response: Response,
    text: string,
    attempts: number,
    idempotencyKey: string | undefined,
  ): Attempted<Result<T>> {
    const { status } = response;
    const envelope = this.#parse(text);
    if (status >= 200 && status < 300 && envelope) {
      if (envelope.code === 0) {
        const replayed = response.headers.get('idempotent-replayed') === 'true';
        const meta = { status, attempts, replayed, ...(idempotencyKey === undefined ? {} : { idempotencyKey }) };
        return { result: { ok: true, data: envelope.data as T, meta }, retry: false };
      }
      return { result: failure({ kind: 'business', ...envelope, status, attempts }), retry: false };
    }
    const error: ApiError = envelope
      ? { kind: 'http', ...envelope, status, attempts }
      : {
          kind: 'http',
          code: null,
          message: `HTTP ${status}: the answer is not the interface's envelope`,
          status,
          data: text,
          attempts,
        };
    const retryAfter =
      status === 429 || status === 503 ? retryAfterMs(response.headers.get('retry-after'), this.now()) : undefined;
    return {
      result: failure(error),
      retry: retryableStatus(status),
      ...(retryAfter === undefined ? {} : { retryAfterMs: retryAfter }),
    };
  }

  /** The envelope in a body, or undefined when the body is not one. */
  #parse(text: string): Parsed | undefined {
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      return undefined;
    }
    if (typeof body !== 'object' || body === null) return undefined;
    const [code, message, data] = this.#fields.map((field) => (body as Record<string, unknown>)[field]);
    return typeof code === 'number' && typeof message === 'string' ? { code, message, data } : undefined;
  }
}
