/**
 * The operator API (`/admin/v1/`, docs/operations.md): accounts, their keys and the audit log,
 * on its own port (`PARCEL_ADMIN_PORT`) so it can stay off the public network, and off (every
 * path 404) without `PARCEL_ADMIN_TOKEN`. Bearer tokens, compared in constant time, behind the
 * same lockout as the client interfaces; errors are RFC 9457 problem documents.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import express from 'express';
import type { NextFunction, Request, Response } from 'express';
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
import type { Lockout } from '../auth/lockout.ts';
import { addressOf } from '../auth/middleware.ts';

export interface AdminDeps {
  store: AccountStore;
  secrets: AccountSecrets;
  /** This gateway's directory: read again after each change, so this gateway sees it at once. */
  accounts: AccountDirectory;
  ref: Pick<ReferenceData, 'serviceTypes'>;
  clock: Clock;
  log: Logger;
  /** The operators' tokens (`PARCEL_ADMIN_TOKEN`); none: the API is off. */
  tokens: readonly { name: string; token: string }[];
  lockout: Lockout;
  trustProxy: boolean | number | string;
}

const BASE = '/admin/v1';

function problem(res: Response, name: ProblemName, detail?: string, extra: Record<string, unknown> = {}): void {
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

const digest = (token: string) => createHash('sha256').update(token, 'utf8').digest();

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

export function createAdminApp(deps: AdminDeps): express.Express {
  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);
  app.set('query parser', 'simple');
  app.set('trust proxy', deps.trustProxy);
  const tokens = deps.tokens.map((t) => ({ name: t.name, digest: digest(t.token) }));

  if (tokens.length === 0) {
    app.use((_req: Request, res: Response) => problem(res, 'notFound'));
    return app;
  }

  /** The operator of the bearer token; every token compared, so the time says nothing of which matched. */
  app.use(BASE, (req: Request, res: Response, next: NextFunction) => {
    const subjects = [addressOf(req)];
    const wait = deps.lockout.retryAfterS(subjects);
    if (wait > 0) {
      res.setHeader('Retry-After', String(wait));
      return problem(res, 'locked', 'Try again later.');
    }
    const match = /^Bearer +(\S+)\s*$/i.exec(req.headers.authorization ?? '');
    const given = digest(match?.[1] ?? '');
    let operator: string | undefined;
    for (const t of tokens) if (timingSafeEqual(t.digest, given)) operator = t.name;
    if (!operator) {
      deps.lockout.failed(subjects);
      deps.log.warn(
        { address: subjects[0]!.id, method: req.method, path: req.originalUrl },
        'operator request refused',
      );
      res.setHeader('WWW-Authenticate', 'Bearer realm="parcel-admin"');
      return problem(res, 'unauthorized', 'Authorization: Bearer <PARCEL_ADMIN_TOKEN> is required.');
    }
    res.locals.operator = operator;
    // Each operator request in the log (the audit log keeps the changes): never a body, which may hold a key.
    res.once('finish', () =>
      deps.log.info(
        { operator, method: req.method, path: req.originalUrl, status: res.statusCode },
        'operator request',
      ),
    );
    next();
  });
  app.use(express.json({ limit: '64kb', type: () => true }));

  const router = express.Router();
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
    res.status(201).location(`${BASE}/accounts/${encodeURIComponent(apiName)}`);
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

  app.use(BASE, router);
  app.use((_req: Request, res: Response) => problem(res, 'notFound'));
  app.use((error: unknown, req: Request, res: Response, _next: NextFunction) => {
    const status = (error as { status?: number }).status;
    if (status === 400 || status === 413) {
      return problem(res, 'invalidBody', status === 413 ? 'The body is over 64 KiB.' : 'The body is not valid JSON.');
    }
    deps.log.error({ err: error, path: req.path }, 'operator request failed');
    if (!res.headersSent) problem(res, 'serverError');
  });
  return app;
}

/**
 * The operator API listening on its own port, when an admin token is set; undefined otherwise (the
 * API is off). Resolves once it listens; a port that cannot be had is an error.
 */
export async function listenAdmin(
  deps: AdminDeps,
  at: { port: number; host: string },
): Promise<{ url: string; close(): Promise<void> } | undefined> {
  if (deps.tokens.length === 0) return undefined;
  const app = createAdminApp(deps);
  const server = await new Promise<Server>((resolve, reject) => {
    const s = app.listen(at.port, at.host, (error?: Error) => (error ? reject(error) : resolve(s)));
  });
  const { port } = server.address() as AddressInfo;
  deps.log.info({ adminPort: port, host: at.host }, 'operator API ready');
  return {
    url: `http://${at.host.includes(':') ? `[${at.host}]` : at.host}:${port}`,
    close: async () => {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeIdleConnections();
      await closed;
    },
  };
}
