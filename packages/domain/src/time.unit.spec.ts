import { formatSgt } from './time.ts';

describe('Singapore time (decisions.md, "Time")', () => {
  test('"ISO 8601, seconds precision, explicit offset": 2026-11-22T14:05:09+08:00', () => {
    expect(formatSgt(new Date('2026-11-22T06:05:09.987Z'))).toBe('2026-11-22T14:05:09+08:00');
  });
  test('crosses the date line of UTC', () => {
    expect(formatSgt(new Date('2026-12-31T16:00:00Z'))).toBe('2027-01-01T00:00:00+08:00');
  });
});
