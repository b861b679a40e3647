/** POST /api/auth/token (decisions.md, "Interface A: the two endpoints the specification does not show"). */
import { timingSafeEqual } from 'node:crypto';
import type { Router } from 'express';
import { A, check, CODE_FAILURE, CODE_SUCCESS, TokenRequest } from '@parcel/contracts';
import { formatSgt } from '@parcel/domain';
import type { Account } from '@parcel/reference-data';
import { issueToken } from '../auth/bearer.ts';
import type { GatewayContext } from '../context.ts';
import { sendA } from '../http/interfaces.ts';

function keyMatches(account: Account, apiKey: string): boolean {
  const expected = Buffer.from(account.apiKey, 'utf8');
  const given = Buffer.from(apiKey, 'utf8');
  return expected.length === given.length && timingSafeEqual(expected, given);
}

export function issuingToken(router: Router, ctx: GatewayContext): void {
  router.post('/api/auth/token', async (req, res) => {
    const body = check(TokenRequest, req.body);
    if (!body.ok) return sendA(res, CODE_FAILURE, body.message, []);
    const account = ctx.accountsByName.get(body.value.ApiName);
    if (!account || !keyMatches(account, body.value.ApiKey)) return sendA(res, CODE_FAILURE, A.invalidCredentials, []);
    const now = ctx.clock.now().getTime();
    const { token, expiresAt } = await issueToken(ctx.projections.tokens, account.clientId, now, ctx.config.tokenTtlS);
    sendA(res, CODE_SUCCESS, A.success, {
      AccessToken: token,
      TokenType: 'Bearer',
      ExpiresIn: ctx.config.tokenTtlS,
      ExpiresAt: formatSgt(new Date(expiresAt)),
    });
  });
}
