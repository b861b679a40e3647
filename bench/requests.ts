/** The load the create-order and status benches send, as autocannon takes it. */
import { randomUUID } from 'node:crypto';
import type autocannon from 'autocannon';
import { orderJson, signed } from './orders.ts';

export const CREATE_ORDER_PATH = '/v1/openapi/order/create-order';

/** Interface B's create-order, signed, a fresh reference (`prefix`) each time; `keyed`: a fresh Idempotency-Key each time too. */
export function createOrderRequest(prefix?: string, { keyed = false } = {}): autocannon.Request {
  return {
    method: 'POST',
    path: CREATE_ORDER_PATH,
    setupRequest: (req) => ({
      ...req,
      headers: keyed ? { ...signed(), 'idempotency-key': randomUUID() } : signed(),
      body: orderJson(prefix),
    }),
  };
}

/** A1 status lookups of `numbers` on the stack at `url`, with an interface A `token`. */
export function a1Lookups(
  url: string,
  token: string,
  numbers: readonly string[],
  load: { connections: number; duration: number },
): autocannon.Options {
  return {
    url: `${url}/api/status/lookup`,
    method: 'POST',
    ...load,
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
    body: JSON.stringify({ TrackingNumber: numbers }),
  };
}
