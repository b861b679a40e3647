import type { NextFunction, Request, Response } from 'express';
import { A, CODE_TOKEN_ERROR } from '@parcel-logistics/contracts';
import type { Clock } from '@parcel-logistics/domain';
import type { TokenStore } from '@parcel-logistics/projections';
import type { Account } from '@parcel-logistics/reference-data';
import { setAccount } from '../context.ts';
import { failB, sendA } from '../http/interfaces.ts';
import { verifyBearer } from './bearer.ts';
import { verifySignedHeaders } from './signature.ts';

export function signedHeaders(accountsByName: ReadonlyMap<string, Account>, clock: Clock) {
  return (req: Request, res: Response, next: NextFunction) => {
    const result = verifySignedHeaders(req.headers, accountsByName, clock.now().getTime());
    if (!result.ok) return failB(res, result.message);
    setAccount(res, result.account);
    next();
  };
}

export function bearerToken(tokens: TokenStore, accountsById: ReadonlyMap<string, Account>, clock: Clock) {
  return async (req: Request, res: Response, next: NextFunction) => {
    const clientId = await verifyBearer(tokens, req.headers.authorization, clock.now().getTime());
    const account = clientId === null ? undefined : accountsById.get(clientId);
    if (!account) return sendA(res, CODE_TOKEN_ERROR, A.tokenError, []);
    setAccount(res, account);
    next();
  };
}
