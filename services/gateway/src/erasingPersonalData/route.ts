/** POST erase-personal-data: 1 to 100 of the account's numbers, erased by the order service (docs/personal-data.md). */
import type { Router } from 'express';
import { B, check, CODE_SUCCESS, ErasePersonalDataRequest } from '@parcel-logistics/contracts';
import type { ErasePersonalData } from '@parcel-logistics/contracts';
import { accountOf } from '../context.ts';
import type { GatewayCommands, Mounting } from '../context.ts';
import { failB, sendB } from '../http/interfaces.ts';
import { mount } from '../http/mount.ts';

/** What erase-personal-data reaches: the order service's commands. */
export interface ErasingPersonalDataDeps extends Mounting {
  commands: Pick<GatewayCommands, 'order'>;
}

export function erasingPersonalData(router: Router, ctx: ErasingPersonalDataDeps): void {
  mount(router, ctx, 'erasePersonalData', async (req, res) => {
    const account = accountOf(res);
    const body = check(ErasePersonalDataRequest, req.body);
    if (!body.ok) return failB(res, body.message);
    const payload: ErasePersonalData['payload'] = {
      clientId: account.clientId,
      trackingNumbers: body.value.tracking_nums,
    };
    const reply = await ctx.commands.order('ErasePersonalData', account.clientId, payload);
    sendB(res, CODE_SUCCESS, B.success, reply);
  });
}
