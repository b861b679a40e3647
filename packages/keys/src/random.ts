/**
 * Fresh random bytes for the per-parcel work (an IV for each seal and each wrap, the bytes of each
 * new data key), drawn from the CSPRNG many at a time: a call of `randomBytes` or `generateKeySync`
 * per value cost more than the AES-GCM it served. Every value is handed out once.
 */
import { randomFillSync } from 'node:crypto';

const IV = 12;
const POOL_IVS = 256;
const KEY = 32;
const POOL_KEYS = 64;

let ivs = Buffer.alloc(0);
let ivOffset = 0;

/** 12 fresh random bytes (a view of the pool: the cipher copies it). */
export function freshIv(): Buffer {
  if (ivOffset + IV > ivs.length) {
    ivs = randomFillSync(Buffer.allocUnsafe(IV * POOL_IVS));
    ivOffset = 0;
  }
  const iv = ivs.subarray(ivOffset, ivOffset + IV);
  ivOffset += IV;
  return iv;
}

/** A buffer of its own (not the shared slab of `allocUnsafe`): it holds key bytes until they are handed out. */
const keys = Buffer.alloc(KEY * POOL_KEYS);
let keyOffset = keys.length;

/**
 * 32 fresh random bytes for a data key: a view of the pool, which the caller zeroes as soon as the
 * key object is made from them and they are wrapped (the pool is refilled in place).
 */
export function freshKeyBytes(): Buffer {
  if (keyOffset + KEY > keys.length) {
    randomFillSync(keys);
    keyOffset = 0;
  }
  const bytes = keys.subarray(keyOffset, keyOffset + KEY);
  keyOffset += KEY;
  return bytes;
}
