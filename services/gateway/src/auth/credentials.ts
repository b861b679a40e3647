/** Token issuance authenticates with the API name and key in the body (decisions.md, Interface A). */
import { timingSafeEqual } from 'node:crypto';
import type { NextFunction, Request, Response } from 'express';
import { A, check, CODE_FAILURE, TokenRequest } from '@parcel-logistics/contracts';
import type { Account } from '@parcel-logistics/reference-data';
import { setAccount } from '../context.ts';
import { sendA } from '../http/interfaces.ts';

function keyMatches(account: Account, apiKey: string): boolean {
  const expected = Buffer.from(account.apiKey, 'utf8');
  const given = Buffer.from(apiKey, 'utf8');
  return expected.length === given.length && timingSafeEqual(expected, given);
}

export function bodyCredentials(accountsByName: ReadonlyMap<string, Account>) {
  return (req: Request, res: Response, next: NextFunction) => {
    const body = check(TokenRequest, req.body);
    if (!body.ok) return sendA(res, CODE_FAILURE, body.message, []);
    const account = accountsByName.get(body.value.ApiName);
    if (!account || !keyMatches(account, body.value.ApiKey)) return sendA(res, CODE_FAILURE, A.invalidCredentials, []);
    setAccount(res, account);
    next();
  };
}
