/** Test fixtures shared by the create-order validation specs (not used by production code). */
import { loadAccounts, loadReferenceData } from '@parcel-logistics/reference-data';
import type { Account } from '@parcel-logistics/reference-data';
import { validateCreateOrder } from '../src/validation/createOrder.ts';
import type { CreateOrderValidation } from '../src/validation/createOrder.ts';

export const ref = loadReferenceData();
const accounts = loadAccounts();
const byId = (id: string): Account => {
  const account = accounts.find((a) => a.clientId === id);
  if (!account) throw new Error(`demo account ${id} missing`);
  return account;
};
/** Service types LMD, PUD, SLF. */
export const demo = byId('demo');
/** Service type LMD only. */
export const other = byId('other');

export type Body = Record<string, unknown>;
/** In a patch: remove the key. */
export const DEL = Symbol('delete');

export const baseItem = (): Body => ({
  description: 'T-shirt',
  unitPrice: 12.75,
  quantity: 2,
  weight: 0.5,
  currency: 'SGD',
  totalValue: 25.5,
});

/** A valid last-mile order to Singapore. */
const baseOrder = (): Body => ({
  custom_tracking_num: 'REF-0001_a',
  recipient_name: 'Tan Ah Kow',
  recipient_country: 'SG',
  recipient_phone: '6591234567',
  recipient_address: '5 Raffles Place\n#10-01',
  sender_country: 'HK',
  client_size: '10,20,30',
  client_weight: 1.5,
  declared_value: 25.5,
  declared_value_currency: 'SGD',
  item: [baseItem()],
  postal_code: '048618',
});

function patched(target: Body, patch: Body): Body {
  for (const [k, v] of Object.entries(patch)) {
    if (v === DEL) delete target[k];
    else target[k] = v;
  }
  return target;
}

export const order = (patch: Body = {}): Body => patched(baseOrder(), patch);
/** Patch of the single item row. */
export const itemPatch = (patch: Body): Body => ({ item: [patched(baseItem(), patch)] });

/** A valid locker_station for locker_type A (a station of the reference data). */
export const lockerStation = (patch: Body = {}): Body => {
  const match = ref.stationsNear('048618', 5000, 1)[0];
  if (!match) throw new Error('reference data has no station near 048618');
  const { station } = match;
  return patched(
    {
      zipcode: station.zipcode,
      station_name: station.name,
      station_address: station.address,
      address_detail: station.addressDetail,
      distance: 120.5,
      station_code: station.code,
    },
    patch,
  );
};

export const run = (body: Body, account: Account = demo): CreateOrderValidation =>
  validateCreateOrder(body, { account, ref });

/** Destinations, each a coherent patch of the base order. */
export const to = {
  US: {
    recipient_country: 'US',
    recipient_state: 'CA',
    postal_code: '94105',
    service_code: 'USG',
    declared_value_currency: 'USD',
  },
  MY: { recipient_country: 'MY', postal_code: '50450' },
  KR: { recipient_country: 'KR', postal_code: '04524' },
  JP: { recipient_country: 'JP', postal_code: '100-0001' },
  HK: { recipient_country: 'HK', postal_code: DEL },
  AU: { recipient_country: 'AU', postal_code: '2000' },
} satisfies Record<string, Body>;

/** A pickup (PUD) order: sender fields given, sender outside HK so sender_postal_code is required. */
export const pickupOrder: Body = {
  service_type: 'PUD',
  sender_country: 'SG',
  sender_name: 'Shop Pte Ltd',
  sender_phone: '6561234567',
  sender_address: '1 Shop Street',
  sender_postal_code: '238858',
};

export const str = (n: number, ch = 'a'): string => ch.repeat(n);

/** One validation case: the body, the account, and a failure message or the expected subset of the stored order. */
export interface Row {
  name: string;
  body: Body;
  account: Account;
  /** A failure message, or the expected subset of the stored order (`DEL` = not stored). */
  expected: string | Body;
}

export const row = (
  rule: string,
  desc: string,
  patch: Body,
  expected: string | Body,
  account: Account = demo,
): Row => ({
  name: `${rule}: ${desc} -> ${typeof expected === 'string' ? expected : `ok ${JSON.stringify(expected)}`.slice(0, 120)}`,
  body: order(patch),
  account,
  expected,
});

/** A case of a rule: what it sends, its patch, the failure message or expected subset, and the account when not demo. */
export type Case = [desc: string, patch: Body, expected: string | Body, account?: Account];

/** The rows of one rule, a case each. */
export const cases = (rule: string, list: Case[]): Row[] =>
  list.map(([desc, patch, expected, account]) => row(rule, desc, patch, expected, account));

export function check({ body, account, expected }: Row): void {
  const result = run(body, account);
  if (typeof expected === 'string') {
    expect(result).toEqual({ ok: false, message: expected });
    return;
  }
  if (!result.ok) throw new Error(`expected ok, got "${result.message}"`);
  const stored = result.order as unknown as Body;
  for (const [k, v] of Object.entries(expected)) {
    if (v === DEL) expect(Object.hasOwn(stored, k)).toBe(false);
    else expect(stored[k]).toEqual(v);
  }
}
