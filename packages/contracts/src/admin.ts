/**
 * The operator API's wire format (`/admin/v1/`, docs/operations.md): request bodies, the answers,
 * and its errors as RFC 9457 problem documents. Apart from both client interfaces: JSON in
 * camelCase, HTTP statuses that say what happened, `application/problem+json` on failure.
 */
import { z } from 'zod';

export const WEIGHT_UNITS = ['kg', 'g', 'lb'] as const;
/** An API name: what clients sign with (interface B lower-cases it), and the account's name in every path. */
export const API_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;

const apiName = z
  .string()
  .regex(API_NAME, 'must be 1 to 64 letters, digits, `.`, `_` or `-`, starting with a letter or digit');

const optionalSettings = {
  batchCreate: z
    .boolean()
    .meta({ description: 'Batch create (B2) for this account; absent: the service’s `PARCEL_BATCH_CREATE`.' }),
  rateLimitPerSecond: z.number().int().min(1).max(100_000).meta({
    description: 'Requests per second, with a burst of twice that; absent: the service’s `PARCEL_RATE_LIMIT_RPS`.',
  }),
  retentionDays: z.number().int().min(0).max(3650).meta({
    description:
      'Days personal data is kept after a parcel’s final status; absent: the service’s `PARCEL_PERSONAL_DATA_RETENTION_DAYS`.',
  }),
};

const requiredSettings = {
  weightUnit: z.enum(WEIGHT_UNITS).meta({ description: 'The unit of the account’s weights.' }),
  serviceTypes: z
    .array(z.string().min(1).max(16))
    .max(32)
    .meta({ description: 'The service types the account may order; empty: every type.' }),
  canCancel: z.boolean().meta({ description: 'The account may cancel orders (B5).' }),
};

export const CreateAccountRequest = z
  .strictObject({
    apiName: apiName.meta({ description: 'The name the client signs with; fixed once created.' }),
    clientId: apiName
      .optional()
      .meta({ description: 'The id the account’s data is kept under; default: the API name.' }),
    weightUnit: requiredSettings.weightUnit.default('kg'),
    serviceTypes: requiredSettings.serviceTypes.default([]),
    canCancel: requiredSettings.canCancel.default(false),
    batchCreate: optionalSettings.batchCreate.optional(),
    rateLimitPerSecond: optionalSettings.rateLimitPerSecond.optional(),
    retentionDays: optionalSettings.retentionDays.optional(),
  })
  .meta({ id: 'CreateAccountRequest' });
export type CreateAccountRequest = z.infer<typeof CreateAccountRequest>;

/** A change of settings: a value sets it; `null` clears an optional one back to the service’s own. */
export const UpdateAccountRequest = z
  .strictObject({
    weightUnit: requiredSettings.weightUnit.optional(),
    serviceTypes: requiredSettings.serviceTypes.optional(),
    canCancel: requiredSettings.canCancel.optional(),
    batchCreate: optionalSettings.batchCreate.nullable().optional(),
    rateLimitPerSecond: optionalSettings.rateLimitPerSecond.nullable().optional(),
    retentionDays: optionalSettings.retentionDays.nullable().optional(),
  })
  .meta({ id: 'UpdateAccountRequest' });
export type UpdateAccountRequest = z.infer<typeof UpdateAccountRequest>;

export const AccountView = z
  .object({
    apiName: z.string(),
    clientId: z.string(),
    weightUnit: z.enum(WEIGHT_UNITS),
    serviceTypes: z.array(z.string()),
    canCancel: z.boolean(),
    batchCreate: z.boolean().optional(),
    rateLimitPerSecond: z.number().int().optional(),
    retentionDays: z.number().int().optional(),
    disabled: z.boolean(),
    activeKeys: z.number().int().meta({ description: 'How many keys sign now (two during a rotation).' }),
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .meta({ id: 'Account' });
export type AccountView = z.infer<typeof AccountView>;

export const IssuedKeyView = z
  .object({
    keyId: z.string(),
    secret: z
      .string()
      .meta({ description: 'The API key. Shown this once: the service keeps it sealed and never shows it again.' }),
    createdAt: z.string(),
  })
  .meta({ id: 'IssuedKey' });

export const CreatedAccountView = z.object({ account: AccountView, key: IssuedKeyView }).meta({ id: 'CreatedAccount' });

export const KeyView = z
  .object({
    keyId: z.string(),
    masked: z.string().meta({ description: 'The key’s last four characters, the rest hidden.' }),
    state: z.enum(['active', 'revoked']),
    createdAt: z.string(),
    revokedAt: z.string().optional(),
    lastUsedAt: z
      .string()
      .optional()
      .meta({ description: 'When it last authenticated a request (written every 10 s or so).' }),
  })
  .meta({ id: 'ApiKey' });

export const AccountListView = z.object({ accounts: z.array(AccountView) }).meta({ id: 'AccountList' });

export const KeyListView = z
  .object({
    keys: z.array(KeyView).meta({ description: 'Every key of the account, revoked ones included, oldest first.' }),
  })
  .meta({ id: 'ApiKeyList' });

export const AuditEntryView = z
  .object({
    seq: z.number().int(),
    at: z.string(),
    actor: z
      .string()
      .meta({ description: 'The operator (the name of the admin token), or `seed` for the accounts file.' }),
    action: z.enum([
      'account.imported',
      'account.created',
      'account.updated',
      'account.disabled',
      'account.enabled',
      'key.issued',
      'key.revoked',
    ]),
    apiName: z.string(),
    detail: z.record(z.string(), z.unknown()),
  })
  .meta({ id: 'AuditEntry' });

export const AuditQuery = z.strictObject({
  limit: z.coerce.number().int().min(1).max(500).default(50),
  before: z.coerce.number().int().min(1).optional(),
});

export const AuditPageView = z
  .object({
    entries: z.array(AuditEntryView),
    next: z.number().int().nullable().meta({ description: 'The `before` of the next (older) page; null on the last.' }),
  })
  .meta({ id: 'AuditPage' });

export const Problem = z
  .object({
    type: z.string(),
    title: z.string(),
    status: z.number().int(),
    detail: z.string().optional(),
    instance: z.string().optional(),
    errors: z.array(z.object({ pointer: z.string(), detail: z.string() })).optional(),
  })
  .meta({ id: 'Problem', description: 'An RFC 9457 problem document.' });
export type Problem = z.infer<typeof Problem>;

/** Each problem the operator API answers: its status, title, and the `type` URI it is known by. */
export const PROBLEMS = {
  unauthorized: { status: 401, title: 'Unauthorized' },
  locked: { status: 429, title: 'Too many failed authentication attempts' },
  invalidBody: { status: 400, title: 'Invalid request' },
  accountNotFound: { status: 404, title: 'Account not found' },
  keyNotFound: { status: 404, title: 'API key not found' },
  notFound: { status: 404, title: 'Not found' },
  accountExists: { status: 409, title: 'Account exists' },
  tooManyKeys: { status: 409, title: 'Too many active keys' },
  unknownServiceType: { status: 422, title: 'Unknown service type' },
  serverError: { status: 500, title: 'Internal server error' },
} as const;
export type ProblemName = keyof typeof PROBLEMS;
export const problemType = (name: ProblemName): string => `urn:parcel-logistics:problem:${name}`;
