/**
 * B2 POST create-orders: disabled, exactly as specified (`Api not found`), unless the account's
 * `batchCreate` setting (the operator API's) or, where the account has none, PARCEL_BATCH_CREATE
 * says on. Enabled, every order gets create-order's validation; the accepted ones
 * are recorded by the order service before the reply and created asynchronously.
 */
import { randomUUID } from 'node:crypto';
import type { Router } from 'express';
import { B, check, CODE_SUCCESS, CreateOrdersRequest, validateCreateOrder } from '@parcel-logistics/contracts';
import type { AcceptOrderBatch, CreateOrder } from '@parcel-logistics/contracts';
import type { BatchEntry, CreateOrdersResult } from '@parcel-logistics/contracts/api';
import { formatSgt } from '@parcel-logistics/domain';
import { accountOf } from '../context.ts';
import type { ProjectionStore } from '@parcel-logistics/projections';
import type { GatewayCommands, GatewayConfig, GatewayContext, Mounting } from '../context.ts';
import { registrationOf } from '../creatingOrder/route.ts';
import { failB, sendB } from '../http/interfaces.ts';
import { mount } from '../http/mount.ts';

/**
 * What create-orders reaches: the order service's commands, the batch settings, the parcel view
 * (early answers on known references), the reference data, the clock.
 */
export interface CreatingOrdersDeps extends Mounting, Pick<GatewayContext, 'ref' | 'clock'> {
  commands: Pick<GatewayCommands, 'order'>;
  config: Pick<GatewayConfig, 'batchCreate'>;
  projections: Pick<ProjectionStore, 'parcels'>;
}

export function creatingOrders(router: Router, ctx: CreatingOrdersDeps): void {
  mount(router, ctx, 'createOrders', async (req, res) => {
    if (!(accountOf(res).batchCreate ?? ctx.config.batchCreate.enabled)) return failB(res, B.apiNotFound);
    const body = check(CreateOrdersRequest, req.body);
    if (!body.ok) return failB(res, body.message);
    const { max } = ctx.config.batchCreate;
    if (body.value.orders.length > max) return failB(res, B.batchLimit(max));

    const account = accountOf(res);
    const dateTime = formatSgt(ctx.clock.now());
    const success: BatchEntry[] = [];
    const errors: BatchEntry[] = [];
    const accepted: CreateOrder['payload'][] = [];
    const seen = new Set<string>();
    for (const raw of body.value.orders) {
      const sent = raw !== null && typeof raw === 'object' ? (raw as Record<string, unknown>) : {};
      const ref = typeof sent.custom_tracking_num === 'string' ? sent.custom_tracking_num : '';
      const reject = (reason: string) =>
        errors.push({ custom_tracking_num: ref, date_time: dateTime, status: 'Rejected', error: [{ reason }] });
      if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) {
        reject(B.invalid('orders'));
        continue;
      }
      const result = validateCreateOrder(sent, { account, ref: ctx.ref });
      if (!result.ok) {
        reject(result.message);
        continue;
      }
      // Early answers for references known now; the order service still enforces uniqueness.
      if (seen.has(ref) || (await ctx.projections.parcels.getByReference(account.clientId, ref))) {
        reject(B.referenceExists(ref));
        continue;
      }
      seen.add(ref);
      accepted.push(registrationOf(account, result));
      success.push({ custom_tracking_num: ref, date_time: dateTime, status: 'Accepted', error: [] });
    }
    if (accepted.length > 0) {
      const payload: AcceptOrderBatch['payload'] = {
        batchId: randomUUID(),
        clientId: account.clientId,
        orders: accepted,
      };
      await ctx.commands.order('AcceptOrderBatch', account.clientId, payload);
    }
    const data: CreateOrdersResult = { success, errors };
    sendB(res, CODE_SUCCESS, B.success, data);
  });
}
