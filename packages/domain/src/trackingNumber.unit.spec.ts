import { checkSymbol, isValidTrackingNumber, newTrackingNumber, TRACKING_ALPHABET } from './trackingNumber.ts';

const bytes = (values: number[]) => () => Uint8Array.from(values);

describe('tracking numbers (decisions.md, "Tracking numbers")', () => {
  test('"upper-case letters and digits, at most 20 characters": PX + 15 random + 1 check symbol', () => {
    for (let i = 0; i < 1000; i++) {
      const n = newTrackingNumber();
      expect(n).toMatch(/^PX[0-9A-Z]{16}$/);
      expect(n.length).toBeLessThanOrEqual(20);
      expect(isValidTrackingNumber(n)).toBe(true);
    }
  });

  test('"carry a check digit": the Luhn mod 32 symbol of a fixed payload', () => {
    // payload 000000000000001: the last symbol doubled is 2, sum 2, check (32 - 2) % 32 = 30 -> 'Y'
    expect(newTrackingNumber(bytes([0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1]))).toBe('PX000000000000001Y');
    expect(checkSymbol('000000000000000')).toBe('0');
  });

  test('"carry a check digit": every single-symbol substitution is detected', () => {
    const n = newTrackingNumber();
    for (let i = 2; i < n.length; i++) {
      for (const s of TRACKING_ALPHABET) {
        if (s === n[i]) continue;
        expect(isValidTrackingNumber(n.slice(0, i) + s + n.slice(i + 1))).toBe(false);
      }
    }
  });

  test('"carry a check digit": swapping neighbouring symbols is detected, except 0/Z (the blind spot of Luhn mod N)', () => {
    for (let k = 0; k < 200; k++) {
      const n = newTrackingNumber();
      for (let i = 2; i < n.length - 2; i++) {
        if (n[i] === n[i + 1] || `${n[i]}${n[i + 1]}` === '0Z' || `${n[i]}${n[i + 1]}` === 'Z0') continue;
        const swapped = n.slice(0, i) + n[i + 1] + n[i] + n.slice(i + 2);
        expect(isValidTrackingNumber(swapped)).toBe(false);
      }
    }
  });

  test('"not sequential": 10 000 numbers are distinct and do not sort in creation order', () => {
    const made = Array.from({ length: 10_000 }, () => newTrackingNumber());
    expect(new Set(made).size).toBe(made.length);
    expect([...made].sort()).not.toEqual(made);
  });

  test('lower case, wrong prefix and wrong length are not tracking numbers', () => {
    const n = newTrackingNumber();
    expect(isValidTrackingNumber(n.toLowerCase())).toBe(false);
    expect(isValidTrackingNumber('QX' + n.slice(2))).toBe(false);
    expect(isValidTrackingNumber(n + '0')).toBe(false);
    expect(isValidTrackingNumber('')).toBe(false);
  });
});
