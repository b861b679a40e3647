/**
 * The operator API (`/admin/v1/`, on the service's admin port, PARCEL_ADMIN_PORT): accounts, their
 * API keys and the audit log, with an operator's bearer token (PARCEL_ADMIN_TOKEN). Unlike the
 * client interfaces it answers plain JSON with HTTP statuses, and RFC 9457 problem documents on
 * failure, which a failed result carries. Method names are the operation ids of docs/openapi.json.
 */
import type { paths } from './generated/openapi.ts';
import { retryableStatus, retryAfterMs } from './retry.ts';
import type { RetryOptions } from './retry.ts';
import { ABORTED, Connection, queryOf } from './transport.ts';
import type { Attempted, CallOptions, FetchLike } from './transport.ts';
import type {
  Account,
  ApiKey,
  AuditPage,
  CreateAccountRequest,
  CreatedAccount,
  IssuedKey,
  Problem,
  UpdateAccountRequest,
} from './types.ts';

export interface AdminClientOptions {
  /** Where the operator API listens (its own port), e.g. `http://127.0.0.1:9080`. */
  baseUrl: string;
  /** An operator's token: one of PARCEL_ADMIN_TOKEN (the token alone, without its `name:`). */
  token: string;
  /** Reads are retried on no answer, 408, 429 and 5xx; changes never are. */
  retry?: RetryOptions;
  /** How long one attempt may take, answer body included. Default 30 000 ms. */
  timeoutMs?: number;
  /** Default: the global fetch. */
  fetch?: FetchLike;
  /** Waits between attempts. Default: a timer. */
  sleep?: (ms: number) => Promise<void>;
}

/**
 * - `problem`: the operator API answered a problem document (401 wrong token, 404 no such account,
 *   409 exists or too many keys, 400 invalid body, 422 unknown service type, 429 locked out, 500).
 * - `http`: an HTTP error whose body is not a problem document (a proxy's page, say).
 * - `network`: no answer arrived: the connection failed, the attempt timed out, or the caller aborted.
 */
export type AdminErrorKind = 'problem' | 'http' | 'network';

export interface AdminError {
  kind: AdminErrorKind;
  /** The HTTP status; null when no answer arrived. */
  status: number | null;
  /** The problem's title and detail; the status and body otherwise; what went wrong for a network failure. */
  message: string;
  /** The problem document as the server wrote it (`type`, `title`, `status`, `detail`, `errors`…); null without one. */
  problem: Problem | null;
  /** The body as text, when it is not a problem document; null otherwise. */
  body: string | null;
  /** How many requests the call sent, retries included. */
  attempts: number;
  /** What fetch threw, for a network failure. */
  cause?: unknown;
}

export interface AdminSuccess<T> {
  ok: true;
  /** The answer's body; undefined for 204 (revokeKey). */
  data: T;
  status: number;
  attempts: number;
}

export interface AdminFailure {
  ok: false;
  error: AdminError;
}

export type AdminResult<T> = AdminSuccess<T> | AdminFailure;

/** A page of the audit log: at most `limit` (1 to 500, default 50) entries older than `before` (a `next` answered before). */
export interface AuditPageQuery {
  limit?: number;
  before?: number;
}

interface AdminRequest {
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE';
  /** The document's path, for the type checker; `url` is it with the parameters filled in. */
  path: keyof paths;
  url: string;
  query?: Record<string, string>;
  body?: unknown;
  signal?: AbortSignal;
}

const segment = encodeURIComponent;

const lost = (message: string, attempts: number, cause?: unknown): AdminFailure => ({
  ok: false,
  error: {
    kind: 'network',
    status: null,
    message,
    problem: null,
    body: null,
    attempts,
    ...(cause === undefined ? {} : { cause }),
  },
});

function asProblem(text: string): Problem | undefined {
  try {
    const body = JSON.parse(text) as Partial<Problem> | null;
    return body && typeof body.type === 'string' && typeof body.title === 'string' && typeof body.status === 'number'
      ? (body as Problem)
      : undefined;
  } catch {
    return undefined;
  }
}

export class AdminClient {
  readonly #token: string;
  readonly #connection: Connection;

  constructor(options: AdminClientOptions) {
    this.#token = options.token;
    this.#connection = new Connection(options);
  }

  /** Onboards a client: the account and its first key, whose secret the answer shows this once. */
  createAccount(account: CreateAccountRequest, options: CallOptions = {}): Promise<AdminResult<CreatedAccount>> {
    return this.#send({
      method: 'POST',
      path: '/admin/v1/accounts',
      url: '/admin/v1/accounts',
      body: account,
      signal: options.signal,
    });
  }

  /** Every account, disabled ones included. */
  async listAccounts(options: CallOptions = {}): Promise<AdminResult<Account[]>> {
    const result = await this.#send<{ accounts: Account[] }>({
      method: 'GET',
      path: '/admin/v1/accounts',
      url: '/admin/v1/accounts',
      signal: options.signal,
    });
    return result.ok ? { ...result, data: result.data.accounts } : result;
  }

  getAccount(apiName: string, options: CallOptions = {}): Promise<AdminResult<Account>> {
    return this.#onAccount('GET', apiName, '', options);
  }

  /** Sets the settings given; `null` clears an optional one back to the service's own. */
  updateAccount(
    apiName: string,
    changes: UpdateAccountRequest,
    options: CallOptions = {},
  ): Promise<AdminResult<Account>> {
    return this.#onAccount('PATCH', apiName, '', options, changes);
  }

  /** Both interfaces refuse the account from now on (within a second); its bearer tokens die. */
  disableAccount(apiName: string, options: CallOptions = {}): Promise<AdminResult<Account>> {
    return this.#onAccount('POST', apiName, '/disable', options, {});
  }

  enableAccount(apiName: string, options: CallOptions = {}): Promise<AdminResult<Account>> {
    return this.#onAccount('POST', apiName, '/enable', options, {});
  }

  /** A new key, its secret shown this once; an account holds at most two active keys (409 `tooManyKeys`). */
  issueKey(apiName: string, options: CallOptions = {}): Promise<AdminResult<IssuedKey>> {
    return this.#onAccount('POST', apiName, '/keys', options, {});
  }

  /** Every key of the account, masked, revoked ones included, oldest first. */
  async listKeys(apiName: string, options: CallOptions = {}): Promise<AdminResult<ApiKey[]>> {
    const result = await this.#onAccount<{ keys: ApiKey[] }>('GET', apiName, '/keys', options);
    return result.ok ? { ...result, data: result.data.keys } : result;
  }

  /** The key signs no more (204, no data). */
  revokeKey(apiName: string, keyId: string, options: CallOptions = {}): Promise<AdminResult<undefined>> {
    return this.#send({
      method: 'DELETE',
      path: '/admin/v1/accounts/{apiName}/keys/{keyId}',
      url: `/admin/v1/accounts/${segment(apiName)}/keys/${segment(keyId)}`,
      signal: options.signal,
    });
  }

  /** A page of the audit log, newest first; `next` is the `before` of the next (older) page, null on the last. */
  audit(page: AuditPageQuery = {}, options: CallOptions = {}): Promise<AdminResult<AuditPage>> {
    return this.#send({
      method: 'GET',
      path: '/admin/v1/audit',
      url: '/admin/v1/audit',
      query: queryOf({ limit: page.limit, before: page.before }),
      signal: options.signal,
    });
  }

  /** A call on one account (`below` empty) or on what is below it: its keys, its disabling or enabling. */
  #onAccount<T>(
    method: AdminRequest['method'],
    apiName: string,
    below: '' | '/disable' | '/enable' | '/keys',
    options: CallOptions,
    body?: unknown,
  ): Promise<AdminResult<T>> {
    const url = `/admin/v1/accounts/${segment(apiName)}${below}`;
    return this.#send({ method, path: `/admin/v1/accounts/{apiName}${below}`, url, body, signal: options.signal });
  }

  #send<T>(request: AdminRequest): Promise<AdminResult<T>> {
    return this.#connection.retrying(
      request.method === 'GET',
      request.signal,
      (attempts) => lost(ABORTED, attempts),
      (attempts) => this.#attempt<T>(request, attempts),
    );
  }

  async #attempt<T>(request: AdminRequest, attempts: number): Promise<Attempted<AdminResult<T>>> {
    const headers: Record<string, string> = {
      accept: 'application/json, application/problem+json',
      authorization: `Bearer ${this.#token}`,
    };
    if (request.body !== undefined) headers['content-type'] = 'application/json';
    const query = request.query && Object.keys(request.query).length ? `?${new URLSearchParams(request.query)}` : '';
    const body = request.body === undefined ? undefined : JSON.stringify(request.body);

    const answer = await this.#connection.exchange(
      `${request.url}${query}`,
      { method: request.method, headers, body },
      request.signal,
    );
    if (!answer.answered) return { result: lost(answer.why, attempts, answer.cause), retry: answer.retry };
    const { response, text } = answer;

    const { status } = response;
    if (status >= 200 && status < 300) {
      if (status === 204 || text === '')
        return { result: { ok: true, data: undefined as T, status, attempts }, retry: false };
      try {
        return { result: { ok: true, data: JSON.parse(text) as T, status, attempts }, retry: false };
      } catch {
        // Falls through: a success whose body is not JSON is no answer this client can read.
      }
    }
    const problem = asProblem(text);
    const error: AdminError = problem
      ? {
          kind: 'problem',
          status,
          message: problem.detail ? `${problem.title}: ${problem.detail}` : problem.title,
          problem,
          body: null,
          attempts,
        }
      : {
          kind: 'http',
          status,
          message: `HTTP ${status}: the answer is not a problem document`,
          problem: null,
          body: text,
          attempts,
        };
    const retryAfter =
      status === 429 || status === 503 ? retryAfterMs(response.headers.get('retry-after'), Date.now()) : undefined;
    return {
      result: { ok: false, error },
      // 409 is a conflict here (the account exists, too many keys), never a request still running.
      retry: status !== 409 && retryableStatus(status),
      ...(retryAfter === undefined ? {} : { retryAfterMs: retryAfter }),
    };
  }
}
