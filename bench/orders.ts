/** The create-order every benchmark sends: the demo account's signed headers and an order with a fresh reference. */
import { SAMPLE_ORDER } from '@parcel-logistics/contracts/api';
import { signature } from '@parcel-logistics/gateway';

let seq = 0;

/** Interface B's signed headers for the demo account, with a fresh seed. */
export function signed(): Record<string, string> {
  const seed = String(Date.now());
  return {
    'content-type': 'application/json',
    'x-auth-name': 'demo',
    'x-auth-seed': seed,
    'x-auth-token': signature('demo', 'demo-secret', seed),
  };
}

/** A valid order to Singapore; `prefix` tells the benchmarks' references apart. */
export function orderJson(prefix = 'B'): string {
  seq += 1;
  return JSON.stringify({ ...SAMPLE_ORDER, custom_tracking_num: `${prefix}-${process.pid}-${seq}` });
}

/** The reference of an order that `orderJson` wrote: what the event store's reference claims are named by. */
export const referenceOf = (body: string): string =>
  (JSON.parse(body) as { custom_tracking_num: string }).custom_tracking_num;

/** An interface A token of the demo account, and `count` parcels created one after another on the stack at `url`. */
export async function tokenAndParcels(
  url: string,
  prefix?: string,
  count = 1000,
): Promise<{ token: string; numbers: string[] }> {
  const tokenReply = await fetch(`${url}/api/auth/token`, {
    method: 'POST',
    body: JSON.stringify({ ApiName: 'demo', ApiKey: 'demo-secret' }),
  });
  const token = ((await tokenReply.json()) as { Data: { AccessToken: string } }).Data.AccessToken;
  const numbers: string[] = [];
  while (numbers.length < count) {
    const r = await fetch(`${url}/v1/openapi/order/create-order`, {
      method: 'POST',
      headers: signed(),
      body: orderJson(prefix),
    });
    numbers.push(((await r.json()) as { data: { wmg_tracking_num: string } }).data.wmg_tracking_num);
  }
  return { token, numbers };
}
