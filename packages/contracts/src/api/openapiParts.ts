/**
 * The fixed parts of the OpenAPI document: the security schemes and what each operation's security
 * kind requires, the answer headers, the Idempotency-Key parameter and the tags.
 */
import { Idempotency } from '../messages.ts';
import { SAMPLE } from './operations.ts';
import type { Security } from './operation.ts';

export const SECURITY: Record<Security, Record<string, string[]>[]> = {
  bearer: [{ bearerToken: [] }],
  signed: [{ apiName: [], apiSeed: [], apiToken: [] }],
  carrier: [{ carrierSignature: [] }],
  credentials: [],
  none: [],
};

/** The operator API's tag, security and server: its own port, apart from the client interfaces. */
export const ADMIN_TAG = 'Operator API';
export const ADMIN_SECURITY = [{ adminBearer: [] }];
export const ADMIN_SERVERS = [
  {
    url: 'http://{host}:{port}',
    description: 'The operator API’s own port (PARCEL_ADMIN_HOST, PARCEL_ADMIN_PORT), not the client port',
    variables: {
      host: { default: '127.0.0.1', description: 'PARCEL_ADMIN_HOST' },
      port: { default: '9080', description: 'PARCEL_ADMIN_PORT' },
    },
  },
];

export const securitySchemes = {
  bearerToken: {
    type: 'http',
    scheme: 'bearer',
    description:
      'Interface A. Get a token from `POST /api/auth/token` with the account’s API name and key, then send ' +
      '`Authorization: Bearer <token>`. A token lives 24 h by default; issuing a new one ends the older one at once. A missing, ' +
      'expired or superseded token answers `{"Code":1003,"Message":"Token error","Data":[]}`.',
  },
  apiName: {
    type: 'apiKey',
    in: 'header',
    name: 'x-auth-name',
    description: 'Interface B: the account’s API name, as registered (e.g. `demo`).',
  },
  apiSeed: {
    type: 'apiKey',
    in: 'header',
    name: 'x-auth-seed',
    description:
      'Interface B: the current Unix time in milliseconds, 13 digits, within 10 minutes of the server’s clock.',
  },
  apiToken: {
    type: 'apiKey',
    in: 'header',
    name: 'x-auth-token',
    description:
      'Interface B: `md5(lower(apiName) + apiKey + seed)` as 32 lower-case hex digits, where `+` joins strings and `seed` is ' +
      'the x-auth-seed header as sent. Neither the body nor the query takes part. Worked example for the demo account: ' +
      `md5("demo" + "demo-secret" + "${SAMPLE.seed}") = \`${SAMPLE.token}\`. Compute a fresh one per request, or at least ` +
      'every few minutes; the gateway compares digests in constant time.',
  },
  adminBearer: {
    type: 'http',
    scheme: 'bearer',
    description:
      'The operator API only: `Authorization: Bearer <token>` with a token of `PARCEL_ADMIN_TOKEN` (one token, or ' +
      '`name:token` pairs separated by commas; the name is the actor of the audit log). A missing or wrong token answers ' +
      'a 401 problem document; repeated failures from one address lock it out for a while (429).',
  },
  carrierSignature: {
    type: 'apiKey',
    in: 'header',
    name: 'X-Carrier-Signature',
    description:
      'Carriers only: `sha256=<hex HMAC-SHA256 of the raw body, keyed with the carrier’s secret from the reference data>`.',
  },
};

export const headers = {
  'RateLimit-Limit': {
    description: 'Requests the account may burst (the token bucket’s size).',
    schema: { type: 'integer' },
  },
  'RateLimit-Remaining': { description: 'Requests left in the bucket after this one.', schema: { type: 'integer' } },
  'RateLimit-Reset': { description: 'Seconds until the bucket is full again.', schema: { type: 'integer' } },
  'Retry-After': { description: 'Seconds to wait before the next request (429 only).', schema: { type: 'integer' } },
  'Idempotent-Replayed': {
    description: '`true` when the answer is the stored answer of an earlier request with the same Idempotency-Key.',
    schema: { type: 'string', enum: ['true'] },
  },
};

export const idempotencyParameter = {
  name: Idempotency.header,
  in: 'header',
  required: false,
  description:
    'Makes a retry safe: a request repeated with the same key and the same body within 24 h gets the first answer again, byte ' +
    'for byte (with `Idempotent-Replayed: true`), without the work being done twice. Keys belong to the account. The same key ' +
    'with another method, path or body is refused. Of concurrent requests with one key exactly one does the work; the others ' +
    'wait for its answer. System errors (5xx) are not kept, so a retry after one runs again. An answer that holds a parcel’s ' +
    'personal data (create-label’s) is forgotten when that data is erased: a repeat then runs anew. 1 to 255 visible ASCII characters; ' +
    'a UUID is a good choice.',
  schema: { type: 'string', minLength: 1, maxLength: 255, pattern: '^[\\x21-\\x7E]+$' },
  example: '4f2a9c1e-6b0d-4c7e-9a51-2f3e8d7c6b5a',
};

export const TAGS = [
  {
    name: 'Interface A',
    description:
      'Bearer-token interface: paths under `/api/`, envelope `{Code, Message, Data}`, success message `Success`.',
  },
  {
    name: 'Interface B',
    description:
      'Signed-header interface: paths under `/v1/openapi/`, envelope `{code, message, data}`, success message `success`.',
  },
  { name: 'Carrier callbacks', description: 'Carriers push tracking events here, signed with their shared secret.' },
  { name: 'Service', description: 'Health, readiness and this reference.' },
  {
    name: ADMIN_TAG,
    description:
      'Accounts, their API keys and the audit log, under `/admin/v1/`, for the service’s operators. Served on its own port ' +
      '(`PARCEL_ADMIN_PORT`, default 9080; the client port answers these paths 404) and only when `PARCEL_ADMIN_TOKEN` is set. ' +
      'Plain JSON with HTTP statuses; failures are RFC 9457 problem documents (`application/problem+json`).',
  },
];
