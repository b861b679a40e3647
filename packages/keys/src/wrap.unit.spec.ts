import { generateKeySync, randomBytes } from 'node:crypto';
import { describe, expect, it } from '@jest/globals';
import { KeyUnwrapError, WrongMasterKeyError } from './errors.ts';
import { masterKeyFromBytes } from './masterKey.ts';
import { unwrapDataKey, wrapDataKey, WRAPPED_LENGTH } from './wrap.ts';

const testMasterKey = () => masterKeyFromBytes(randomBytes(32));
const masterKey = testMasterKey();
const dataKey = generateKeySync('aes', { length: 256 });
const raw = dataKey.export();

describe('wrapping data keys', () => {
  it('wraps into 69 bytes (version, master key id, IV, tag, ciphertext) that unwrap to the same key', () => {
    const wrapped = wrapDataKey(masterKey, 'PX1#1', dataKey);
    expect(wrapped.length).toBe(WRAPPED_LENGTH);
    expect(wrapped[0]).toBe(1);
    expect(wrapped.subarray(1, 9).equals(masterKey.idBytes)).toBe(true);
    expect(wrapped.includes(raw)).toBe(false);
    expect(unwrapDataKey(masterKey, 'PX1#1', wrapped).export().equals(raw)).toBe(true);
    expect(wrapDataKey(masterKey, 'PX1#1', dataKey).equals(wrapped)).toBe(false);
  });

  it('binds the key id: a wrapped key moved to another parcel or generation does not open', () => {
    const wrapped = wrapDataKey(masterKey, 'PX1#1', dataKey);
    expect(() => unwrapDataKey(masterKey, 'PX2#1', wrapped)).toThrow(KeyUnwrapError);
    expect(() => unwrapDataKey(masterKey, 'PX1#2', wrapped)).toThrow(
      'cannot unwrap data key PX1#2: it does not authenticate under the master key',
    );
  });

  it('a wrong master key fails with a clear error naming both master key ids, before decrypting', () => {
    const other = testMasterKey();
    const wrapped = wrapDataKey(masterKey, 'PX1#1', dataKey);
    expect(() => unwrapDataKey(other, 'PX1#1', wrapped)).toThrow(WrongMasterKeyError);
    expect(() => unwrapDataKey(other, 'PX1#1', wrapped)).toThrow(
      `data key PX1#1 was wrapped under master key ${masterKey.id}, but the configured master key is ${other.id}`,
    );
    // The same master key id with other key bytes (forged header) still fails authentication.
    const forged = Buffer.from(wrapped);
    forged.set(other.idBytes, 1);
    expect(() => unwrapDataKey(other, 'PX1#1', forged)).toThrow(KeyUnwrapError);
  });

  it('refuses damaged, truncated and unknown-version bytes', () => {
    const wrapped = wrapDataKey(masterKey, 'PX1#1', dataKey);
    for (let index = 9; index < WRAPPED_LENGTH; index++) {
      const damaged = Buffer.from(wrapped);
      damaged[index]! ^= 0x80;
      expect(() => unwrapDataKey(masterKey, 'PX1#1', damaged)).toThrow(KeyUnwrapError);
    }
    expect(() => unwrapDataKey(masterKey, 'PX1#1', wrapped.subarray(0, 68))).toThrow('a wrapped key has 69 bytes');
    const future = Buffer.from(wrapped);
    future[0] = 2;
    expect(() => unwrapDataKey(masterKey, 'PX1#1', future)).toThrow('unknown format version 2');
  });
});
