/**
 * What every call resolves to. A failure the server answered is a value, never an exception, so a
 * caller handles business errors, system errors and lost connections in one place, by `kind`.
 */

/**
 * - `business`: HTTP 200 with a non-zero code (a validation message, `Order Not Found!`, interface
 *   A's `1003 Token error`); repeating the call gets the same answer, so it is never retried.
 * - `http`: a system error, HTTP 4xx or 5xx with the envelope (`Invalid JSON body`, 429
 *   `Too many requests`, 500 `server error`), or an answer that is not the interface's envelope.
 * - `network`: no answer arrived: the connection failed, the attempt timed out, or the caller aborted.
 */
export type ErrorKind = 'business' | 'http' | 'network';

export interface ApiError {
  kind: ErrorKind;
  /** The envelope's code (1, or 1003 for interface A's token error); null when there was no envelope. */
  code: number | null;
  /** The envelope's message, exactly as the server wrote it; for a network failure, what went wrong. */
  message: string;
  /** The HTTP status; null when no answer arrived. */
  status: number | null;
  /**
   * The envelope's data: `[]` for most failures, an object for a few (query-status's miss). Without
   * an envelope, the body as text (what a proxy answered, say); null when no answer arrived.
   */
  data: unknown;
  /** How many requests the call sent, retries included. */
  attempts: number;
  /** What fetch threw, for a network failure. */
  cause?: unknown;
}

export interface ResponseMeta {
  status: number;
  attempts: number;
  /** The server answered from its Idempotency-Key record: an earlier attempt had done the work. */
  replayed: boolean;
  /** The Idempotency-Key the call sent, if any. */
  idempotencyKey?: string;
}

export interface Success<T> {
  ok: true;
  data: T;
  meta: ResponseMeta;
}

export interface Failure {
  ok: false;
  error: ApiError;
}

export type Result<T> = Success<T> | Failure;
