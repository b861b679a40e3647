/** Interface B signed headers: token = md5(lower(apiName) + apiKey + seed), lower-case hex, with any active key of the account. */
import { createHash, timingSafeEqual } from 'node:crypto';
import type { Account } from '@parcel-logistics/accounts';
import { B } from '@parcel-logistics/contracts';

const SEED_WINDOW_MS = 10 * 60 * 1000;

export const signature = (apiName: string, apiKey: string, seed: string): string =>
  createHash('md5')
    .update(apiName.toLowerCase() + apiKey + seed)
    .digest('hex');

export type SignatureCheck =
  | { ok: true; account: Account; keyId: string }
  /** `guess`: a wrong name or token, counted against the name and address (lockout.ts). */
  | { ok: false; message: string; guess: boolean };

const header = (value: string | string[] | undefined): string | undefined =>
  typeof value === 'string' && value.length > 0 ? value : undefined;

/** The key of `keys` that `given` is a signature of, compared in constant time each; undefined for none. */
function signingKey(account: Account, seed: string, given: Buffer): string | undefined {
  let found: string | undefined;
  for (const key of account.keys) {
    const expected = Buffer.from(signature(account.apiName, key.secret, seed), 'utf8');
    if (given.length === expected.length && timingSafeEqual(given, expected)) found = key.keyId;
  }
  return found;
}

export function verifySignedHeaders(
  headers: Record<string, string | string[] | undefined>,
  accountNamed: (apiName: string) => Account | undefined,
  nowMs: number,
): SignatureCheck {
  const name = header(headers['x-auth-name']);
  const seed = header(headers['x-auth-seed']);
  const token = header(headers['x-auth-token']);
  if (name === undefined) return { ok: false, message: B.authRequired('x-auth-name'), guess: false };
  if (seed === undefined) return { ok: false, message: B.authRequired('x-auth-seed'), guess: false };
  if (token === undefined) return { ok: false, message: B.authRequired('x-auth-token'), guess: false };
  const account = accountNamed(name);
  if (!account) return { ok: false, message: B.authInvalid('x-auth-name'), guess: true };
  if (!/^\d{13}$/.test(seed)) return { ok: false, message: B.authInvalid('x-auth-seed'), guess: false };
  if (Math.abs(nowMs - Number(seed)) > SEED_WINDOW_MS)
    return { ok: false, message: B.authTimeout('x-auth-seed'), guess: false };
  const keyId = signingKey(account, seed, Buffer.from(token, 'utf8'));
  if (keyId === undefined) return { ok: false, message: B.authInvalid('x-auth-token'), guess: true };
  return { ok: true, account, keyId };
}
