/**
 * Wrapping a data key under the master key, version 1 (69 bytes):
 *
 *   0x01 | master key id (8) | IV (12, random) | GCM tag (16) | AES-256-GCM of the 32 key bytes (32)
 *
 * The AAD is the first 9 bytes (version and master key id) followed by the UTF-8 key id, so a
 * wrapped key opens only as the key it was wrapped for: a row copied to another parcel, or to
 * another generation of the same parcel, fails. The master key id tells a wrong master key apart
 * from damaged bytes before any decryption is tried.
 */
import { createCipheriv, createDecipheriv, createSecretKey, type KeyObject } from 'node:crypto';
import { KeyUnwrapError, WrongMasterKeyError } from './errors.ts';
import type { MasterKey } from './masterKey.ts';
import { freshIv } from './random.ts';

export const WRAP_VERSION = 1;
const HEADER = 9;
const IV = 12;
const TAG = 16;
const KEY = 32;
export const WRAPPED_LENGTH = HEADER + IV + TAG + KEY;

export function wrapDataKey(masterKey: MasterKey, keyId: string, dataKey: KeyObject): Buffer {
  const raw = dataKey.export();
  try {
    return wrapKeyBytes(masterKey, keyId, raw);
  } finally {
    raw.fill(0);
  }
}

/** Wraps a data key given as its 32 bytes (which the caller zeroes). */
export function wrapKeyBytes(masterKey: MasterKey, keyId: string, raw: Buffer): Buffer {
  if (raw.length !== KEY) throw new Error(`a data key has ${KEY} bytes, got ${raw.length}`);
  const out = Buffer.allocUnsafe(WRAPPED_LENGTH);
  out[0] = WRAP_VERSION;
  masterKey.idBytes.copy(out, 1);
  const iv = freshIv();
  iv.copy(out, HEADER);
  const cipher = createCipheriv('aes-256-gcm', masterKey.key, iv);
  cipher.setAAD(aad(out, keyId));
  cipher.update(raw).copy(out, HEADER + IV + TAG);
  cipher.final();
  cipher.getAuthTag().copy(out, HEADER + IV);
  return out;
}

export function unwrapDataKey(masterKey: MasterKey, keyId: string, wrapped: Uint8Array): KeyObject {
  const bytes = Buffer.from(wrapped.buffer, wrapped.byteOffset, wrapped.byteLength);
  if (bytes.length !== WRAPPED_LENGTH) {
    throw new KeyUnwrapError(keyId, `a wrapped key has ${WRAPPED_LENGTH} bytes, this one ${bytes.length}`);
  }
  if (bytes[0] !== WRAP_VERSION) throw new KeyUnwrapError(keyId, `unknown format version ${bytes[0]}`);
  const wrappedUnder = bytes.subarray(1, HEADER);
  if (!wrappedUnder.equals(masterKey.idBytes)) {
    throw new WrongMasterKeyError(`data key ${keyId}`, wrappedUnder.toString('hex'), masterKey.id);
  }
  const decipher = createDecipheriv('aes-256-gcm', masterKey.key, bytes.subarray(HEADER, HEADER + IV));
  decipher.setAAD(aad(bytes, keyId));
  decipher.setAuthTag(bytes.subarray(HEADER + IV, HEADER + IV + TAG));
  const raw = decipher.update(bytes.subarray(HEADER + IV + TAG));
  try {
    decipher.final();
    return createSecretKey(raw);
  } catch {
    throw new KeyUnwrapError(
      keyId,
      'it does not authenticate under the master key (the stored bytes were altered or moved)',
    );
  } finally {
    raw.fill(0);
  }
}

function aad(header: Buffer, keyId: string): Buffer {
  const id = Buffer.from(keyId, 'utf8');
  const out = Buffer.allocUnsafe(HEADER + id.length);
  header.copy(out, 0, 0, HEADER);
  id.copy(out, HEADER);
  return out;
}
