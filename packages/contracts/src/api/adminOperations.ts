/**
 * The operations of the operator API (`/admin/v1/`, docs/operations.md), served on its own port
 * (`PARCEL_ADMIN_PORT`) by services/gateway/src/administering/app.ts: accounts, their keys and the
 * audit log. The OpenAPI document lists them under their own tag and security scheme, beside
 * `OPERATIONS` (which the client port serves); a contract test sends every example here to a
 * running operator API.
 */
import { z } from 'zod';
import {
  AccountListView,
  AccountView,
  API_NAME,
  AuditPageView,
  AuditQuery,
  CreateAccountRequest,
  CreatedAccountView,
  IssuedKeyView,
  KeyListView,
  PROBLEMS,
  problemType,
  UpdateAccountRequest,
} from '../admin.ts';
import type { ProblemName } from '../admin.ts';
import type { AdminOperation, ProblemDoc } from './operation.ts';

/** The values examples use; the contract test replaces the key's id and secret with real ones. */
export const ADMIN_SAMPLE = {
  apiName: 'acme',
  keyId: 'key_5e1f0c2a9b7d4e3f8a6c1b2d',
  secondKeyId: 'key_9a3c7e1b5d2f4a6c8e0b1d3f',
  unknownKeyId: 'key_000000000000000000000000',
  secret: 'plk_Vd3mQ9xKfT2wL8pR4sN7yB1cH6jZ0aE5gU_oI-kMnXq',
  time: '2026-11-22T06:05:09.000Z',
} as const;

const BASE = '/admin/v1';

/** The problem document an example answers, as the operator API writes it. */
export const problemExample = (
  name: ProblemName,
  instance: string,
  detail?: string,
  extra: Record<string, unknown> = {},
) => ({
  type: problemType(name),
  title: PROBLEMS[name].title,
  status: PROBLEMS[name].status,
  ...(detail ? { detail } : {}),
  instance,
  ...extra,
});

const apiNameParam = z.object({
  apiName: z.string().regex(API_NAME).meta({ description: 'The account’s API name.' }),
});
const keyParams = z.object({
  apiName: apiNameParam.shape.apiName,
  keyId: z.string().meta({ description: 'The key’s id (`key_` and 24 hex digits), from the list of keys.' }),
});

const noAccount: ProblemDoc = { problem: 'accountNotFound', when: 'no account has this API name' };
const unknownType: ProblemDoc = {
  problem: 'unknownServiceType',
  when: 'serviceTypes names a type the reference data does not have',
};
const invalid = (what: string): ProblemDoc => ({ problem: 'invalidBody', when: what });

/** The answers every operation can give: no or a wrong token, the lockout, an unexpected failure. */
const withCommon = (op: AdminOperation): AdminOperation => ({
  ...op,
  problems: [
    { problem: 'unauthorized', when: 'the Authorization header holds no operator token, or a wrong one' },
    {
      problem: 'locked',
      when: 'too many failed authentications from this address; Retry-After says when to try again',
    },
    ...op.problems,
    { problem: 'serverError', when: 'an unexpected failure' },
  ],
});

const sampleAccount = {
  apiName: ADMIN_SAMPLE.apiName,
  clientId: ADMIN_SAMPLE.apiName,
  weightUnit: 'kg',
  serviceTypes: ['LMD'],
  canCancel: true,
  disabled: false,
  activeKeys: 1,
  createdAt: ADMIN_SAMPLE.time,
  updatedAt: ADMIN_SAMPLE.time,
};
const accountPath = `${BASE}/accounts/${ADMIN_SAMPLE.apiName}`;

export const ADMIN_OPERATIONS: readonly AdminOperation[] = (
  [
    {
      id: 'createAccount',
      method: 'post',
      path: `${BASE}/accounts`,
      summary: 'Create an account',
      description:
        'Onboards a client: the account and its first API key. The answer holds the key’s secret, shown this once: the service ' +
        'keeps it sealed. The account signs interface B and gets interface A’s tokens at once, on every gateway within a second.',
      body: CreateAccountRequest,
      status: 201,
      success: CreatedAccountView,
      location: true,
      problems: [
        invalid(
          'the body is not JSON, over 64 KiB, has an unknown field, or a field of the wrong type (`errors` names each)',
        ),
        { problem: 'accountExists', when: 'an account has this API name or client id' },
        unknownType,
      ],
      examples: [
        {
          name: 'created',
          summary: 'A client that may cancel, on one service type',
          body: { apiName: ADMIN_SAMPLE.apiName, serviceTypes: ['LMD'], canCancel: true },
          status: 201,
          response: {
            account: sampleAccount,
            key: { keyId: ADMIN_SAMPLE.keyId, secret: ADMIN_SAMPLE.secret, createdAt: ADMIN_SAMPLE.time },
          },
        },
        {
          name: 'exists',
          summary: 'The name of an existing account',
          body: { apiName: ADMIN_SAMPLE.apiName },
          status: 409,
          response: problemExample('accountExists', `${BASE}/accounts`, 'An account has this API name or client id.'),
        },
        {
          name: 'unknownField',
          summary: 'A field the API does not know',
          body: { apiName: 'x1', colour: 'red' },
          status: 400,
          response: problemExample('invalidBody', `${BASE}/accounts`, '/: unknown field(s): colour', {
            errors: [{ pointer: '/', detail: 'unknown field(s): colour' }],
          }),
        },
      ],
    },
    {
      id: 'listAccounts',
      method: 'get',
      path: `${BASE}/accounts`,
      summary: 'Every account',
      description: 'Every account, disabled ones included, in the order they were made; no key in the answer.',
      status: 200,
      success: AccountListView,
      problems: [],
      examples: [{ name: 'accounts', summary: 'One account', status: 200, response: { accounts: [sampleAccount] } }],
    },
    {
      id: 'getAccount',
      method: 'get',
      path: `${BASE}/accounts/:apiName`,
      summary: 'One account',
      description: 'The account’s settings, whether it is disabled, and how many keys sign for it.',
      params: apiNameParam,
      status: 200,
      success: AccountView,
      problems: [noAccount],
      examples: [
        {
          name: 'account',
          summary: 'The account',
          params: { apiName: ADMIN_SAMPLE.apiName },
          status: 200,
          response: sampleAccount,
        },
        {
          name: 'unknown',
          summary: 'No such account',
          params: { apiName: 'nobody' },
          status: 404,
          response: problemExample('accountNotFound', `${BASE}/accounts/nobody`),
        },
      ],
    },
    {
      id: 'updateAccount',
      method: 'patch',
      path: `${BASE}/accounts/:apiName`,
      summary: 'Change an account’s settings',
      description:
        'Sets the fields given and leaves the others; `null` clears an optional setting back to the service’s own. Both ' +
        'interfaces apply the change within a second.',
      params: apiNameParam,
      body: UpdateAccountRequest,
      status: 200,
      success: AccountView,
      problems: [
        invalid(
          'the body is not JSON, over 64 KiB, has an unknown field, or a field of the wrong type (`errors` names each)',
        ),
        noAccount,
        unknownType,
      ],
      examples: [
        {
          name: 'rateLimit',
          summary: 'Its own rate limit, and batch create',
          params: { apiName: ADMIN_SAMPLE.apiName },
          body: { rateLimitPerSecond: 50, batchCreate: true },
          status: 200,
          response: { ...sampleAccount, batchCreate: true, rateLimitPerSecond: 50 },
        },
        {
          name: 'unknownType',
          summary: 'A service type the reference data lacks',
          params: { apiName: ADMIN_SAMPLE.apiName },
          body: { serviceTypes: ['LMD', 'NOPE'] },
          status: 422,
          response: problemExample('unknownServiceType', accountPath, 'unknown service type(s): NOPE'),
        },
      ],
    },
    ...(['disable', 'enable'] as const).map((action): AdminOperation => ({
      id: `${action}Account`,
      method: 'post',
      path: `${BASE}/accounts/:apiName/${action}`,
      summary: action === 'disable' ? 'Disable an account' : 'Enable an account',
      description:
        action === 'disable'
          ? 'Both interfaces refuse the account as they refuse an unknown one, within a second; its bearer tokens die and its ' +
            'webhooks wait. Its data and keys are kept. Disabling a disabled account changes nothing.'
          : 'The account’s keys sign again; bearer tokens issued before it was disabled stay dead. Enabling an enabled account ' +
            'changes nothing.',
      params: apiNameParam,
      status: 200,
      success: AccountView,
      problems: [noAccount],
      examples: [
        {
          name: action === 'disable' ? 'disabled' : 'enabled',
          summary: action === 'disable' ? 'The account, disabled' : 'The account, enabled',
          params: { apiName: ADMIN_SAMPLE.apiName },
          status: 200,
          response: { ...sampleAccount, disabled: action === 'disable' },
        },
      ],
    })),
    {
      id: 'issueKey',
      method: 'post',
      path: `${BASE}/accounts/:apiName/keys`,
      summary: 'Issue an API key',
      description:
        'A new key for the account, its secret shown this once. An account holds at most two active keys: a rotation issues the ' +
        'second, moves the client to it, then revokes the first. Both sign meanwhile.',
      params: apiNameParam,
      status: 201,
      success: IssuedKeyView,
      problems: [noAccount, { problem: 'tooManyKeys', when: 'the account holds two active keys already' }],
      examples: [
        {
          name: 'issued',
          summary: 'A second key, for a rotation',
          params: { apiName: ADMIN_SAMPLE.apiName },
          status: 201,
          response: { keyId: ADMIN_SAMPLE.secondKeyId, secret: ADMIN_SAMPLE.secret, createdAt: ADMIN_SAMPLE.time },
        },
        {
          name: 'tooMany',
          summary: 'A third active key',
          params: { apiName: ADMIN_SAMPLE.apiName },
          status: 409,
          response: problemExample(
            'tooManyKeys',
            `${accountPath}/keys`,
            'An account holds at most two active keys: revoke one first.',
          ),
        },
      ],
    },
    {
      id: 'listKeys',
      method: 'get',
      path: `${BASE}/accounts/:apiName/keys`,
      summary: 'The account’s API keys',
      description:
        'Every key of the account, masked (the secret is never shown again), with its state and when it last signed a request.',
      params: apiNameParam,
      status: 200,
      success: KeyListView,
      problems: [noAccount],
      examples: [
        {
          name: 'keys',
          summary: 'Two active keys during a rotation',
          params: { apiName: ADMIN_SAMPLE.apiName },
          status: 200,
          response: {
            keys: [
              { keyId: ADMIN_SAMPLE.keyId, masked: '••••3fQa', state: 'active', createdAt: ADMIN_SAMPLE.time },
              { keyId: ADMIN_SAMPLE.secondKeyId, masked: '••••MnXq', state: 'active', createdAt: ADMIN_SAMPLE.time },
            ],
          },
        },
      ],
    },
    {
      id: 'revokeKey',
      method: 'delete',
      path: `${BASE}/accounts/:apiName/keys/:keyId`,
      summary: 'Revoke an API key',
      description:
        'The key signs no more, on either interface, within a second; it stays in the list as `revoked`. Revoking a revoked ' +
        'key changes nothing.',
      params: keyParams,
      status: 204,
      problems: [noAccount, { problem: 'keyNotFound', when: 'the account has no key of this id' }],
      examples: [
        {
          name: 'revoked',
          summary: 'The first key, after the rotation',
          params: { apiName: ADMIN_SAMPLE.apiName, keyId: ADMIN_SAMPLE.keyId },
          status: 204,
        },
        {
          name: 'unknown',
          summary: 'A key the account does not have',
          params: { apiName: ADMIN_SAMPLE.apiName, keyId: ADMIN_SAMPLE.unknownKeyId },
          status: 404,
          response: problemExample('keyNotFound', `${accountPath}/keys/${ADMIN_SAMPLE.unknownKeyId}`),
        },
      ],
    },
    {
      id: 'audit',
      method: 'get',
      path: `${BASE}/audit`,
      summary: 'The audit log',
      description:
        'Every change to the accounts, newest first, a page at a time: who (the operator’s token name, or `seed` for the ' +
        'accounts file), what, and when. The next page is `?before=<next>`; `next` is null on the last.',
      query: AuditQuery,
      status: 200,
      success: AuditPageView,
      problems: [invalid('limit is not 1 to 500, or before is not a positive whole number')],
      examples: [
        {
          name: 'page',
          summary: 'The two latest changes',
          query: { limit: '2' },
          status: 200,
          response: {
            entries: [
              {
                seq: 9,
                at: ADMIN_SAMPLE.time,
                actor: 'ops',
                action: 'key.revoked',
                apiName: ADMIN_SAMPLE.apiName,
                detail: { keyId: ADMIN_SAMPLE.keyId },
              },
              {
                seq: 8,
                at: ADMIN_SAMPLE.time,
                actor: 'ops',
                action: 'key.issued',
                apiName: ADMIN_SAMPLE.apiName,
                detail: { keyId: ADMIN_SAMPLE.secondKeyId },
              },
            ],
            next: 8,
          },
        },
        {
          name: 'badLimit',
          summary: 'A limit of 0',
          query: { limit: '0' },
          status: 400,
          response: problemExample(
            'invalidBody',
            `${BASE}/audit?limit=0`,
            '/limit: Too small: expected number to be >=1',
            {
              errors: [{ pointer: '/limit', detail: 'Too small: expected number to be >=1' }],
            },
          ),
        },
      ],
    },
  ] satisfies AdminOperation[]
).map(withCommon);
