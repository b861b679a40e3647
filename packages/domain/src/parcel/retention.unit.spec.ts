/** Retention by policy: days after the final status, at most days after creation. */
import { finalAtOf, FINAL_STATUS_CODES, retentionCutoffs, retentionDueAt } from './retention.ts';

const policy = { afterFinalDays: 90, maxDays: 365 };
const day = (n: number) => new Date(Date.UTC(2026, 0, 1) + n * 86_400_000);

test('due 90 days after the final status when that comes first', () => {
  expect(retentionDueAt(policy, { createdAt: day(0), finalAt: day(10) })).toEqual(day(100));
});

test('due 365 days after creation for a parcel that never reaches a final status, or reaches it late', () => {
  expect(retentionDueAt(policy, { createdAt: day(0) })).toEqual(day(365));
  expect(retentionDueAt(policy, { createdAt: day(0), finalAt: day(300) })).toEqual(day(365));
});

test('a retention of 0 days is due at the final status itself', () => {
  expect(retentionDueAt({ afterFinalDays: 0, maxDays: 365 }, { createdAt: day(0), finalAt: day(3) })).toEqual(day(3));
});

test('the cut-offs of a sweep agree with the due date', () => {
  const now = day(400);
  const { createdBefore, finalBefore } = retentionCutoffs(policy, now);
  expect(createdBefore).toEqual(day(35));
  expect(finalBefore).toEqual(day(310));
  expect(retentionDueAt(policy, { createdAt: createdBefore }).getTime()).toBe(now.getTime());
});

test('delivered, returned and cancelled are final; in transit is not', () => {
  expect([...FINAL_STATUS_CODES].sort()).toEqual(['CN_CN', 'DL_DL', 'RS_RS']);
  expect(FINAL_STATUS_CODES.has('IT_IT')).toBe(false);
});

test('a parcel is final from the earliest of its final activities, whatever their order', () => {
  const activity = (dateTime: string, statusCode: string) => ({ dateTime, statusCode });
  expect(finalAtOf([])).toBeUndefined();
  expect(finalAtOf([activity('2026-11-22T15:00:00+08:00', 'IT_IT')])).toBeUndefined();
  expect(
    finalAtOf([
      activity('2026-11-25T09:00:00+08:00', 'RS_RS'),
      activity('2026-11-24T09:00:00+08:00', 'IT_IT'),
      activity('2026-11-23T10:00:00+08:00', 'DL_DL'),
      activity('2026-11-22T14:00:00+08:00', 'DR_DR'),
    ]),
  ).toBe('2026-11-23T10:00:00+08:00');
  // Compared as times, not as text: 01:00Z is 09:00 in Singapore, before 10:00 there.
  expect(finalAtOf([activity('2026-11-23T10:00:00+08:00', 'DL_DL'), activity('2026-11-23T01:00:00Z', 'CN_CN')])).toBe(
    '2026-11-23T01:00:00Z',
  );
});
