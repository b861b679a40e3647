/**
 * API keys at rest: sealed (AES-256-GCM, packages/keys) under a key derived from the master key
 * (HKDF-SHA-256, its own label), so the personal data's data keys and the API keys never share a
 * key. The seal binds the key id and the client id: a sealed secret copied to another key or
 * account does not open.
 */
import { createSecretKey, hkdfSync, randomBytes, type KeyObject } from 'node:crypto';
import { seal, unseal, type MasterKey } from '@parcel-logistics/keys';

const LABEL = 'parcel-logistics/accounts api keys v1';
/** New secrets: a prefix that says what they are, then 32 random bytes. */
const SECRET_PREFIX = 'plk_';

export interface AccountSecrets {
  seal(secret: string, clientId: string, keyId: string): string;
  /** Throws UnsealError (packages/keys) when the master key is another or the value was altered. */
  open(sealed: string, clientId: string, keyId: string): string;
}

export function accountSecrets(masterKey: MasterKey): AccountSecrets {
  const key: KeyObject = createSecretKey(Buffer.from(hkdfSync('sha256', masterKey.key, '', LABEL, 32)));
  const aad = (clientId: string, keyId: string) => `account-key/${clientId}/${keyId}`;
  return {
    seal: (secret, clientId, keyId) => seal(key, secret, aad(clientId, keyId)),
    open: (sealed, clientId, keyId) => unseal(key, sealed, aad(clientId, keyId)),
  };
}

export const newKeyId = (): string => `key_${randomBytes(12).toString('hex')}`;
export const newSecret = (): string => SECRET_PREFIX + randomBytes(32).toString('base64url');
export const hintOf = (secret: string): string => secret.slice(-4);
/** How a listing shows a key: never more than its last four characters. */
export const maskedKey = (hint: string): string => `••••${hint}`;
