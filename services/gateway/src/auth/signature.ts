/** Interface B signed headers: token = md5(lower(apiName) + apiKey + seed), lower-case hex. */
import { createHash, timingSafeEqual } from 'node:crypto';
import { B } from '@parcel-logistics/contracts';
import type { Account } from '@parcel-logistics/reference-data';

const SEED_WINDOW_MS = 10 * 60 * 1000;

export const signature = (apiName: string, apiKey: string, seed: string): string =>
  createHash('md5')
    .update(apiName.toLowerCase() + apiKey + seed)
    .digest('hex');

export type SignatureCheck = { ok: true; account: Account } | { ok: false; message: string };

const header = (value: string | string[] | undefined): string | undefined =>
  typeof value === 'string' && value.length > 0 ? value : undefined;

export function verifySignedHeaders(
  headers: Record<string, string | string[] | undefined>,
  accountsByName: ReadonlyMap<string, Account>,
  nowMs: number,
): SignatureCheck {
  const name = header(headers['x-auth-name']);
  const seed = header(headers['x-auth-seed']);
  const token = header(headers['x-auth-token']);
  if (name === undefined) return { ok: false, message: B.authRequired('x-auth-name') };
  if (seed === undefined) return { ok: false, message: B.authRequired('x-auth-seed') };
  if (token === undefined) return { ok: false, message: B.authRequired('x-auth-token') };
  const account = accountsByName.get(name);
  if (!account) return { ok: false, message: B.authInvalid('x-auth-name') };
  if (!/^\d{13}$/.test(seed)) return { ok: false, message: B.authInvalid('x-auth-seed') };
  if (Math.abs(nowMs - Number(seed)) > SEED_WINDOW_MS) return { ok: false, message: B.authTimeout('x-auth-seed') };
  const expected = Buffer.from(signature(account.apiName, account.apiKey, seed), 'utf8');
  const given = Buffer.from(token, 'utf8');
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
    return { ok: false, message: B.authInvalid('x-auth-token') };
  }
  return { ok: true, account };
}
