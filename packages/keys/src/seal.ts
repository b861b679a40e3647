/**
 * Sealing a personal value under its parcel's data key: AES-256-GCM, a random 96-bit IV, the AAD
 * (what the value is, e.g. `parcel-PX…/ParcelRegistered.v2/recipient.phone`) bound in. The sealed
 * form is one base64url string, version 1:
 *
 *   0x01 | IV (12) | GCM tag (16) | ciphertext (as long as the UTF-8 plaintext)
 *
 * so a value of n bytes seals to ceil((29 + n) * 4 / 3) characters. A data key seals the few
 * values of one parcel, far below GCM's limit of 2^32 random IVs per key.
 *
 * On the create-order path: the key stays a KeyObject (no key bytes copied per call), IVs are
 * taken from a pool filled by the CSPRNG 256 at a time (random.ts), and the output is assembled in one buffer.
 */
import { createCipheriv, createDecipheriv, type KeyObject } from 'node:crypto';
import { UnsealError } from './errors.ts';
import { freshIv } from './random.ts';

export const SEAL_VERSION = 1;
const IV = 12;
const TAG = 16;
const PREFIX = 1 + IV + TAG;

/** Encrypts `plaintext` under `key` (a 32-byte secret KeyObject), bound to `aad`. */
export function seal(key: KeyObject, plaintext: string, aad: string): string {
  const iv = freshIv();
  const cipher = createCipheriv('aes-256-gcm', key, iv, { authTagLength: TAG });
  cipher.setAAD(Buffer.from(aad, 'utf8'));
  const ciphertext = cipher.update(plaintext, 'utf8');
  cipher.final();
  const out = Buffer.allocUnsafe(PREFIX + ciphertext.length);
  out[0] = SEAL_VERSION;
  iv.copy(out, 1);
  cipher.getAuthTag().copy(out, 1 + IV);
  ciphertext.copy(out, PREFIX);
  return out.toString('base64url');
}

/** Opens what `seal` gave for the same key and AAD; throws UnsealError otherwise, never returns unauthenticated text. */
export function unseal(key: KeyObject, sealed: string, aad: string): string {
  const bytes = Buffer.from(sealed, 'base64url');
  if (bytes.length < PREFIX)
    throw new UnsealError(`a sealed value has at least ${PREFIX} bytes, this one ${bytes.length}`);
  if (bytes[0] !== SEAL_VERSION) throw new UnsealError(`unknown format version ${bytes[0]}`);
  const decipher = createDecipheriv('aes-256-gcm', key, bytes.subarray(1, 1 + IV), { authTagLength: TAG });
  decipher.setAuthTag(bytes.subarray(1 + IV, PREFIX));
  decipher.setAAD(Buffer.from(aad, 'utf8'));
  const plaintext = decipher.update(bytes.subarray(PREFIX));
  try {
    decipher.final();
  } catch {
    plaintext.fill(0);
    throw new UnsealError('it does not authenticate (another key, another AAD, or altered)');
  }
  return plaintext.toString('utf8');
}
