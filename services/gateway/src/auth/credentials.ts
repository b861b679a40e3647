/** Token issuance authenticates with the API name and key in the body (decisions.md, Interface A). */
import { timingSafeEqual } from 'node:crypto';
import type { Account } from '@parcel-logistics/accounts';

/** The id of the account's active key that `apiKey` is, compared in constant time with each; undefined for none. */
export function matchingKey(account: Account, apiKey: string): string | undefined {
  const given = Buffer.from(apiKey, 'utf8');
  let found: string | undefined;
  for (const key of account.keys) {
    const expected = Buffer.from(key.secret, 'utf8');
    if (expected.length === given.length && timingSafeEqual(expected, given)) found = key.keyId;
  }
  return found;
}
