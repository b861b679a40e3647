/**
 * Interface A (`/api/...`) with the bearer token's life handled: a token is issued with the first
 * call that needs one and reused; one about to expire is replaced; and when the server answers
 * `1003 Token error` (the token expired, or a newer token of the account superseded it) the client
 * issues a new one once and sends the call once more. Method names are the operation ids of
 * docs/openapi.json.
 */
import type { Failure, Result } from './result.ts';
import { asking, changing, Transport } from './transport.ts';
import type { Call, CallOptions, ClientOptions, MutatingCallOptions } from './transport.ts';
import type {
  CreateLabelRequest,
  CreateLabelResult,
  StatusLookupResult,
  TokenResult,
  TrackingNumberResult,
} from './types.ts';

const TOKEN_ERROR = 1003;

/**
 * When a token is replaced before a call rather than after a refusal: a minute before it expires,
 * or with a tenth of its life left when it lives less than ten minutes (PARCEL_TOKEN_TTL_S).
 */
const renewAt = (issuedAtMs: number, expiresInS: number): number =>
  issuedAtMs + expiresInS * 1000 - Math.min(60_000, expiresInS * 100);

type TokenState = { ok: true; token: string } | Failure;

export class InterfaceAClient {
  readonly #transport: Transport;
  readonly #credentials: { ApiName: string; ApiKey: string };
  #held: { token: string; renewAtMs: number } | undefined;
  #issuing: Promise<Result<TokenResult>> | undefined;

  constructor(options: ClientOptions) {
    this.#transport = new Transport(options, 'A');
    this.#credentials = { ApiName: options.apiName, ApiKey: options.apiKey };
  }

  /**
   * Issues a new bearer token, which the client uses from then on. It supersedes every older token
   * of the account, on every gateway: other clients of the account get `1003` on their next call
   * (this client renews its own then). The other methods issue one when they need it.
   */
  async issueToken(options?: MutatingCallOptions): Promise<Result<TokenResult>> {
    const call = changing('/api/auth/token', this.#credentials, options);
    const result = await this.#transport.send<TokenResult>({ ...call, auth: () => ({}) });
    if (result.ok)
      this.#held = { token: result.data.AccessToken, renewAtMs: renewAt(this.#transport.now(), result.data.ExpiresIn) };
    return result;
  }

  /** A1: the status of many parcels; unknown numbers are listed in `Errors`, and the call still succeeds. */
  lookUpStatus(trackingNumbers: string[], options?: CallOptions): Promise<Result<StatusLookupResult>> {
    return this.#withToken(asking('/api/status/lookup', { TrackingNumber: trackingNumbers }, options));
  }

  /** A2: the CN23 customs declaration as a Base64 PDF; records LB_GN on the parcel, so it carries an Idempotency-Key. */
  createLabel(request: CreateLabelRequest, options?: MutatingCallOptions): Promise<Result<CreateLabelResult>> {
    return this.#withToken(changing('/api/create-label', request, options));
  }

  /** The platform tracking number of your own reference (custom_tracking_num). */
  lookUpTrackingNumber(reference: string, options?: CallOptions): Promise<Result<TrackingNumberResult>> {
    return this.#withToken(asking('/api/tracking-number', { Barcode: reference }, options));
  }

  /** Sends with the current token; on 1003, once more with a new one (and the same Idempotency-Key). */
  async #withToken<T>(call: Call): Promise<Result<T>> {
    const first = await this.#token();
    if (!first.ok) return first;
    const result = await this.#sendWith<T>(call, first.token);
    if (result.ok || result.error.code !== TOKEN_ERROR) return result;
    const renewed = await this.#renew(first.token);
    if (!renewed.ok) return renewed;
    return this.#sendWith<T>(call, renewed.token);
  }

  #sendWith<T>(call: Call, token: string): Promise<Result<T>> {
    return this.#transport.send<T>({ ...call, auth: () => ({ authorization: `Bearer ${token}` }) });
  }

  #token(): Promise<TokenState> {
    const held = this.#held;
    if (held && this.#transport.now() < held.renewAtMs) return Promise.resolve({ ok: true, token: held.token });
    return this.#issueShared();
  }

  /** A new token in place of a refused one, unless another call has already replaced it: that one is used, not superseded. */
  #renew(refused: string): Promise<TokenState> {
    const held = this.#held;
    if (held && held.token !== refused) return Promise.resolve({ ok: true, token: held.token });
    return this.#issueShared();
  }

  /** One issuance at a time: calls that need a token meanwhile wait for the same one, rather than supersede each other's. */
  async #issueShared(): Promise<TokenState> {
    this.#issuing ??= this.issueToken().finally(() => {
      this.#issuing = undefined;
    });
    const issued = await this.#issuing;
    return issued.ok ? { ok: true, token: issued.data.AccessToken } : issued;
  }
}
