/** The create-order every benchmark sends: the demo account's signed headers and an order with a fresh reference. */
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
  return JSON.stringify({
    custom_tracking_num: `${prefix}-${process.pid}-${seq}`,
    recipient_name: 'Tan Ah Kow',
    recipient_country: 'SG',
    recipient_phone: '6591234567',
    recipient_address: '1 Raffles Place',
    postal_code: '048616',
    sender_country: 'SG',
    client_size: '10,30,20',
    client_weight: 1.2,
    declared_value: 49.9,
    declared_value_currency: 'SGD',
    item: [{ description: 'Book', unitPrice: 24.95, quantity: 2, weight: 0.6, currency: 'SGD', totalValue: 49.9 }],
  });
}

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
