/**
 * The guards of the client interfaces: each authenticates a request by its interface's scheme
 * against the account directory, behind the lockout of repeated failures (lockout.ts).
 */
import type { NextFunction, Request, Response } from 'express';
import type { AccountDirectory } from '@parcel-logistics/accounts';
import { A, check, CODE_FAILURE, CODE_TOKEN_ERROR, Http, TokenRequest } from '@parcel-logistics/contracts';
import type { Clock } from '@parcel-logistics/domain';
import type { TokenStore } from '@parcel-logistics/projections';
import { setAccount } from '../context.ts';
import { failB, sendA, sendFor } from '../http/interfaces.ts';
import { verifyBearer } from './bearer.ts';
import { matchingKey } from './credentials.ts';
import type { Lockout, Subject } from './lockout.ts';
import { verifySignedHeaders } from './signature.ts';

export interface AuthDeps {
  accounts: AccountDirectory;
  tokens: TokenStore;
  clock: Clock;
  lockout: Lockout;
}

/** The client's address: the connection's peer, or what a trusted proxy says (`PARCEL_TRUST_PROXY`). */
export const addressOf = (req: Request): Subject => ({ kind: 'address', id: req.ip ?? 'unknown' });

/** Refuses the attempt unseen while its name or address is locked out; true when it did. */
function lockedOut(deps: AuthDeps, subjects: Subject[], req: Request, res: Response): boolean {
  const wait = deps.lockout.retryAfterS(subjects);
  if (wait === 0) return false;
  res.setHeader('Retry-After', String(wait));
  sendFor(req, res, CODE_FAILURE, Http.authLocked, 429);
  return true;
}

export function signedHeaders(deps: AuthDeps) {
  return (req: Request, res: Response, next: NextFunction) => {
    const name = req.headers['x-auth-name'];
    const subjects: Subject[] = [
      addressOf(req),
      ...(typeof name === 'string' ? [{ kind: 'name' as const, id: name }] : []),
    ];
    if (lockedOut(deps, subjects, req, res)) return;
    const now = deps.clock.now();
    const result = verifySignedHeaders(req.headers, deps.accounts.byName, now.getTime());
    if (!result.ok) {
      if (result.guess) deps.lockout.failed(subjects);
      return failB(res, result.message);
    }
    deps.lockout.succeeded(subjects);
    deps.accounts.used(result.keyId, now);
    setAccount(res, result.account);
    next();
  };
}

export function bodyCredentials(deps: AuthDeps) {
  return (req: Request, res: Response, next: NextFunction) => {
    const body = check(TokenRequest, req.body);
    if (!body.ok) return sendA(res, CODE_FAILURE, body.message, []);
    const subjects: Subject[] = [addressOf(req), { kind: 'name', id: body.value.ApiName }];
    if (lockedOut(deps, subjects, req, res)) return;
    const account = deps.accounts.byName(body.value.ApiName);
    const keyId = account && matchingKey(account, body.value.ApiKey);
    if (!account || !keyId) {
      deps.lockout.failed(subjects);
      return sendA(res, CODE_FAILURE, A.invalidCredentials, []);
    }
    deps.lockout.succeeded(subjects);
    deps.accounts.used(keyId, deps.clock.now());
    setAccount(res, account);
    next();
  };
}

/** A current token of an enabled account, issued after the account was last disabled (in that millisecond: refused). */
export function bearerToken(deps: AuthDeps) {
  return async (req: Request, res: Response, next: NextFunction) => {
    const subjects = [addressOf(req)];
    if (lockedOut(deps, subjects, req, res)) return;
    const token = await verifyBearer(deps.tokens, req.headers.authorization, deps.clock.now().getTime());
    const account = token === null ? undefined : deps.accounts.byId(token.clientId);
    if (!account || (account.tokensValidAfter > 0 && token!.issuedAt <= account.tokensValidAfter)) {
      if (req.headers.authorization !== undefined) deps.lockout.failed(subjects);
      return sendA(res, CODE_TOKEN_ERROR, A.tokenError, []);
    }
    setAccount(res, account);
    next();
  };
}
