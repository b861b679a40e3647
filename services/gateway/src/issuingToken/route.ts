/** POST /api/auth/token (decisions.md, "Interface A: the two endpoints the specification does not show"). */
import type { Router } from 'express';
import { A, CODE_SUCCESS } from '@parcel-logistics/contracts';
import type { TokenResult } from '@parcel-logistics/contracts/api';
import { formatSgt } from '@parcel-logistics/domain';
import { issueToken } from '../auth/bearer.ts';
import { accountOf } from '../context.ts';
import type { ProjectionStore } from '@parcel-logistics/projections';
import type { GatewayConfig, GatewayContext, Mounting } from '../context.ts';
import { sendA } from '../http/interfaces.ts';
import { mount } from '../http/mount.ts';

/** What issue-token reaches: the token store, the token lifetime, the clock. */
export interface IssuingTokenDeps extends Mounting, Pick<GatewayContext, 'clock'> {
  projections: Pick<ProjectionStore, 'tokens'>;
  config: Pick<GatewayConfig, 'tokenTtlS'>;
}

export function issuingToken(router: Router, ctx: IssuingTokenDeps): void {
  // The credentials in the body were checked by the guard (auth/credentials.ts).
  mount(router, ctx, 'issueToken', async (_req, res) => {
    const now = ctx.clock.now().getTime();
    const { token, expiresAt } = await issueToken(
      ctx.projections.tokens,
      accountOf(res).clientId,
      now,
      ctx.config.tokenTtlS,
    );
    const data: TokenResult = {
      AccessToken: token,
      TokenType: 'Bearer',
      ExpiresIn: ctx.config.tokenTtlS,
      ExpiresAt: formatSgt(new Date(expiresAt)),
    };
    sendA(res, CODE_SUCCESS, A.success, data);
  });
}
