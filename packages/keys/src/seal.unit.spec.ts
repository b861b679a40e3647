import { createSecretKey, generateKeySync } from 'node:crypto';
import { describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import { UnsealError } from './errors.ts';
import { seal, unseal } from './seal.ts';

const key = generateKeySync('aes', { length: 256 });
const aad = 'parcel-PX0000000000000000/ParcelRegistered.v2/recipient.phone';

/** Flips one bit of the byte at `index` of a sealed value. */
const flip = (sealed: string, index: number): string => {
  const bytes = Buffer.from(sealed, 'base64url');
  bytes[index]! ^= 0x01;
  return bytes.toString('base64url');
};

describe('seal and unseal', () => {
  it('round trips any string, with any AAD', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme' }), fc.string(), (plaintext, anyAad) => {
        expect(unseal(key, seal(key, plaintext, anyAad), anyAad)).toBe(plaintext);
      }),
    );
    for (const text of ['', 'Zürich 東京 🚚 \u0000 "q" \n', 'x'.repeat(100_000)]) {
      expect(unseal(key, seal(key, text, aad), aad)).toBe(text);
    }
  });

  it('is a compact base64url string: version, IV, tag and ciphertext', () => {
    const sealed = seal(key, '+65 9123 4567', aad);
    expect(sealed).toMatch(/^[A-Za-z0-9_-]+$/);
    const bytes = Buffer.from(sealed, 'base64url');
    expect(bytes[0]).toBe(1);
    expect(bytes.length).toBe(1 + 12 + 16 + Buffer.byteLength('+65 9123 4567'));
    expect(sealed.length).toBe(Math.ceil((bytes.length * 4) / 3));
  });

  it('uses a fresh IV each time: the same plaintext seals differently', () => {
    const sealed = Array.from({ length: 1000 }, () => seal(key, 'same', aad));
    expect(new Set(sealed).size).toBe(1000);
    expect(new Set(sealed.map((s) => Buffer.from(s, 'base64url').subarray(1, 13).toString('hex'))).size).toBe(1000);
  });

  it('detects tampering with any byte: version, IV, tag or ciphertext', () => {
    const sealed = seal(key, 'Jane Doe', aad);
    const length = Buffer.from(sealed, 'base64url').length;
    for (let index = 0; index < length; index++) {
      expect(() => unseal(key, flip(sealed, index), aad)).toThrow(UnsealError);
    }
    const bytes = Buffer.from(sealed, 'base64url');
    expect(() => unseal(key, bytes.subarray(0, length - 1).toString('base64url'), aad)).toThrow(UnsealError);
    expect(() => unseal(key, bytes.subarray(0, 20).toString('base64url'), aad)).toThrow('at least 29 bytes');
    expect(() => unseal(key, '', aad)).toThrow(UnsealError);
  });

  it('binds the AAD: another field or parcel does not open', () => {
    const sealed = seal(key, 'Jane Doe', aad);
    expect(() => unseal(key, sealed, aad.replace('phone', 'name'))).toThrow(
      'cannot unseal: it does not authenticate (another key, another AAD, or altered)',
    );
    expect(() => unseal(key, sealed, '')).toThrow(UnsealError);
  });

  it('another key does not open, and the message holds neither key nor plaintext', () => {
    const sealed = seal(key, 'Jane Doe', aad);
    const other = createSecretKey(Buffer.alloc(32, 7));
    let error: unknown;
    try {
      unseal(other, sealed, aad);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(UnsealError);
    expect(String((error as Error).message)).not.toMatch(/Jane|0707/);
  });
});
