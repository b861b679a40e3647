/**
 * The operator API's routes (`/admin/v1/`, docs/operations.md): accounts, their settings, their
 * keys and the audit log. Each change goes through the accounts' operator actions (which write it
 * with its audit entry) and is read again by this gateway's directory at once; errors are RFC 9457
 * problem documents. app.ts serves them on their own port, behind the operator's bearer token.
 */
import type { Request, Response, Router } from 'express';
import {
  activeKeys,
  createAccount,
  issueKey,
  maskedKey,
  revokeKey,
  setDisabled,
  updateAccount,
} from '@parcel-logistics/accounts';
import type {
  AccountDirectory,
  AccountRecord,
  AccountStore,
  AccountSecrets,
  Refusal,
} from '@parcel-logistics/accounts';
import {
  AuditQuery,
  CreateAccountRequest,
  PROBLEMS,
  problemType,
  UpdateAccountRequest,
} from '@parcel-logistics/contracts';
import type { AccountView, ProblemName } from '@parcel-logistics/contracts';
import type { Clock } from '@parcel-logistics/domain';
import type { ReferenceData } from '@parcel-logistics/reference-data';
import type { Logger } from 'pino';
import type { z } from 'zod';

/** What the operator API reaches: the account store and seal, this gateway's directory, the reference data, the clock. */
export interface ManagingAccountsDeps {
  store: AccountStore;
  secrets: AccountSecrets;
  /** This gateway's directory: read again after each change, so this gateway sees it at once. */
  accounts: AccountDirectory;
  ref: Pick<ReferenceData, 'serviceTypes'>;
  clock: Clock;
  log: Logger;
}

/** Answers the named problem document. */
export function problem(res: Response, name: ProblemName, detail?: string, extra: Record<string, unknown> = {}): void {
  const { status, title } = PROBLEMS[name];
  res
    .status(status)
    .type('application/problem+json')
    .send(
      JSON.stringify({
        type: problemType(name),
        title,
        status,
        ...(detail ? { detail } : {}),
        instance: res.req.originalUrl,
        ...extra,
      }),
    );
}

const REFUSALS: { [R in Refusal]: ProblemName } = {
  'account-not-found': 'accountNotFound',
  'account-exists': 'accountExists',
  'too-many-keys': 'tooManyKeys',
  'key-not-found': 'keyNotFound',
};

export function accountView(record: AccountRecord): AccountView {
  return {
    apiName: record.apiName,
    clientId: record.clientId,
    ...record.settings,
    disabled: record.disabled,
    activeKeys: activeKeys(record).length,
    createdAt: record.createdAt,
    updatedAt: record.updatedAt,
  };
}

/** The body or query checked by `schema`, or a 400 problem naming each wrong field (a JSON pointer). */
function parse<S extends z.ZodType>(schema: S, input: unknown, res: Response): z.infer<S> | undefined {
  const result = schema.safeParse(input ?? {});
  if (result.success) return result.data;
  const errors = result.error.issues.map((issue) => ({
    pointer: '/' + issue.path.map(String).join('/'),
    detail: issue.code === 'unrecognized_keys' ? `unknown field(s): ${issue.keys.join(', ')}` : issue.message,
  }));
  problem(res, 'invalidBody', errors.map((e) => `${e.pointer}: ${e.detail}`).join('; '), { errors });
  return undefined;
}

/** The operator API's routes (mounted under `/admin/v1` by app.ts, behind its operator check). */
export function managingAccounts(router: Router, deps: ManagingAccountsDeps): void {
  const actor = (res: Response) => res.locals.operator as string;
  const ops = { store: deps.store, secrets: deps.secrets, clock: deps.clock };
  /** A change made: this gateway's directory reads it now rather than at its next poll. */
  const changed = () =>
    deps.accounts.refresh().catch((err: unknown) => deps.log.warn({ err }, 'account directory refresh failed'));
  const unknownTypes = (types: readonly string[] | undefined) =>
    (types ?? []).filter((t) => !deps.ref.serviceTypes.has(t));
  const param = (req: Request, name: string) => String(req.params[name]);

  router.post('/accounts', async (req, res) => {
    const body = parse(CreateAccountRequest, req.body, res);
    if (!body) return;
    const unknown = unknownTypes(body.serviceTypes);
    if (unknown.length) return problem(res, 'unknownServiceType', `unknown service type(s): ${unknown.join(', ')}`);
    const { apiName, clientId, ...settings } = body;
    const created = await createAccount(ops, actor(res), { apiName, ...(clientId ? { clientId } : {}), settings });
    if (!created.ok) return problem(res, 'accountExists', 'An account has this API name or client id.');
    await changed();
    res.status(201).location(`${req.baseUrl}/accounts/${encodeURIComponent(apiName)}`);
    res.json({ account: accountView(created.value.account), key: created.value.key });
  });

  router.get('/accounts', async (_req, res) => {
    res.json({ accounts: (await deps.store.list()).accounts.map(accountView) });
  });

  router.get('/accounts/:apiName', async (req, res) => {
    const record = await deps.store.get(param(req, 'apiName'));
    if (!record) return problem(res, 'accountNotFound');
    res.json(accountView(record));
  });

  router.patch('/accounts/:apiName', async (req, res) => {
    const body = parse(UpdateAccountRequest, req.body, res);
    if (!body) return;
    const unknown = unknownTypes(body.serviceTypes);
    if (unknown.length) return problem(res, 'unknownServiceType', `unknown service type(s): ${unknown.join(', ')}`);
    const outcome = await updateAccount(ops, actor(res), param(req, 'apiName'), body);
    if (!outcome.ok) return problem(res, REFUSALS[outcome.refusal]);
    await changed();
    res.json(accountView(outcome.value));
  });

  for (const [path, disabled] of [
    ['disable', true],
    ['enable', false],
  ] as const) {
    router.post(`/accounts/:apiName/${path}`, async (req, res) => {
      const outcome = await setDisabled(ops, actor(res), param(req, 'apiName'), disabled);
      if (!outcome.ok) return problem(res, REFUSALS[outcome.refusal]);
      await changed();
      res.json(accountView(outcome.value));
    });
  }

  router.post('/accounts/:apiName/keys', async (req, res) => {
    const outcome = await issueKey(ops, actor(res), param(req, 'apiName'));
    if (!outcome.ok)
      return problem(
        res,
        REFUSALS[outcome.refusal],
        outcome.refusal === 'too-many-keys' ? 'An account holds at most two active keys: revoke one first.' : undefined,
      );
    await changed();
    res.status(201).json(outcome.value);
  });

  router.get('/accounts/:apiName/keys', async (req, res) => {
    const record = await deps.store.get(param(req, 'apiName'));
    if (!record) return problem(res, 'accountNotFound');
    const used = await deps.store.lastUsed(record.keys.map((k) => k.keyId));
    res.json({
      keys: record.keys.map((k) => ({
        keyId: k.keyId,
        masked: maskedKey(k.hint),
        state: k.revokedAt ? 'revoked' : 'active',
        createdAt: k.createdAt,
        ...(k.revokedAt ? { revokedAt: k.revokedAt } : {}),
        ...(used.has(k.keyId) ? { lastUsedAt: used.get(k.keyId) } : {}),
      })),
    });
  });

  router.delete('/accounts/:apiName/keys/:keyId', async (req, res) => {
    const outcome = await revokeKey(ops, actor(res), param(req, 'apiName'), param(req, 'keyId'));
    if (!outcome.ok) return problem(res, REFUSALS[outcome.refusal]);
    await changed();
    res.status(204).end();
  });

  router.get('/audit', async (req, res) => {
    const query = parse(AuditQuery, req.query, res);
    if (!query) return;
    const entries = await deps.store.audit(query);
    const last = entries.at(-1);
    res.json({ entries, next: entries.length === query.limit && last ? last.seq : null });
  });
}
