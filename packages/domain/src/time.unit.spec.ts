import { formatSgt } from './time.ts';

describe('Singapore time (decisions.md, "Time")', () => {
  test('"ISO 8601, seconds precision, explicit offset": 2026-11-22T14:05:09+08:00', () => {
    expect(formatSgt(new Date('2026-11-22T06:05:09.987Z'))).toBe('2026-11-22T14:05:09+08:00');
  });
  test('crosses the date line of UTC', () => {
    expect(formatSgt(new Date('2026-12-31T16:00:00Z'))).toBe('2027-01-01T00:00:00+08:00');
  });
  test('the same second formatted again, then the next and an earlier one: each its own text', () => {
    expect(formatSgt(new Date('2026-11-22T06:05:09.001Z'))).toBe('2026-11-22T14:05:09+08:00');
    expect(formatSgt(new Date('2026-11-22T06:05:09.999Z'))).toBe('2026-11-22T14:05:09+08:00');
    expect(formatSgt(new Date('2026-11-22T06:05:10.000Z'))).toBe('2026-11-22T14:05:10+08:00');
    expect(formatSgt(new Date('2026-11-22T06:05:09.500Z'))).toBe('2026-11-22T14:05:09+08:00');
    expect(formatSgt(new Date('1969-12-31T23:59:59.500Z'))).toBe('1970-01-01T07:59:59+08:00');
  });
  test('an invalid date throws, as it did before the last second was kept', () => {
    formatSgt(new Date('2026-11-22T06:05:09Z'));
    expect(() => formatSgt(new Date(Number.NaN))).toThrow(RangeError);
    expect(formatSgt(new Date('2026-11-22T06:05:09Z'))).toBe('2026-11-22T14:05:09+08:00');
  });
});
