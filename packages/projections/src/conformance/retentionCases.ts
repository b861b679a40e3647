import { expect, it } from '@jest/globals';
import type { StoredParcelView } from '@parcel-logistics/contracts';
import type { ProjectionStore } from '../port.ts';
import { parcelView, type Context } from './context.ts';

/** An activity of a view: `statusCode` at `dateTime`, in Singapore. */
export const activity = (dateTime: string, statusCode: string): StoredParcelView['activities'][number] => ({
  dateTime,
  statusCode,
  statusDesc: statusCode,
  remarks: '',
  receiveBy: '',
  pod: [],
  location: 'SG',
  eventId: `evt-${statusCode}-${dateTime}`,
});

/** Views as a store kept them before the retention sweep: a young one, a cancelled one, an old one and an old erased one. */
export const formerRetentionViews = (): StoredParcelView[] => [
  parcelView({ trackingNumber: 'OLD-YOUNG', clientId: 'c', createdAt: '2026-06-01T10:00:00+08:00' }),
  parcelView({
    trackingNumber: 'OLD-CANCELLED',
    clientId: 'c',
    createdAt: '2026-06-01T10:00:00+08:00',
    activities: [activity('2026-06-02T10:00:00+08:00', 'CN_CN'), activity('2026-06-01T10:00:00+08:00', 'DR_DR')],
  }),
  parcelView({ trackingNumber: 'OLD-OLD', clientId: 'c', createdAt: '2025-01-01T10:00:00+08:00' }),
  parcelView({
    trackingNumber: 'OLD-ERASED',
    clientId: 'c',
    createdAt: '2025-01-01T10:00:00+08:00',
    personalDataErased: true,
  }),
];

/** A store opened on the former views finds the cancelled and the old one due, not the erased one, and keeps the young one as it was. */
export async function expectFormerViewsDue(store: ProjectionStore, views: StoredParcelView[]): Promise<void> {
  const due = await store.parcels.dueForErasure({
    createdBefore: new Date('2026-01-01T00:00:00Z'),
    finalBefore: new Date('2026-06-03T00:00:00Z'),
    limit: 10,
  });
  expect(due.sort()).toEqual(['OLD-CANCELLED', 'OLD-OLD']);
  expect(await store.parcels.get('OLD-YOUNG')).toEqual(views[0]);
}

/**
 * The retention sweep's query. A database may be shared with other tests (their parcels are of
 * 2026 unless told): each test here reads its own parcels among the answer, and the test of
 * `limit`, whose answer cannot be filtered so, has parcels of 1990 that no other test has.
 */
export function retentionCases(ctx: Context): void {
  const parcels = () => ctx.store.parcels;
  let year = 2001;
  const at = (day: string) => `${year}-${day}T10:00:00+08:00`;
  const ms = (day: string) => new Date(Date.parse(at(day)));
  /** A view created on `created`, final on `final` (if given). */
  const parcel = (label: string, created: string, final?: string): StoredParcelView =>
    parcelView({
      trackingNumber: ctx.id(label),
      clientId: ctx.id('client'),
      createdAt: at(created),
      activities: [...(final ? [activity(at(final), 'CN_CN')] : []), activity(at(created), 'DR_DR')],
      ...(final ? { status: 'cancelled' as const, finalAt: at(final) } : {}),
    });
  /** This test's parcels among those due. */
  const due = async (createdBefore: string, finalBefore: string) =>
    (await parcels().dueForErasure({ createdBefore: ms(createdBefore), finalBefore: ms(finalBefore), limit: 10_000 }))
      .filter((trackingNumber) => trackingNumber.startsWith(ctx.id('')))
      .sort();

  it('dueForErasure: parcels created at or before the one cut-off, or final at or before the other, and not erased', async () => {
    const old = parcel('OLD', '01-01');
    const finalEarly = parcel('FINAL-EARLY', '06-01', '06-02');
    const finalLate = parcel('FINAL-LATE', '06-01', '07-01');
    const young = parcel('YOUNG', '06-01');
    const erased = { ...parcel('ERASED', '01-01', '01-02'), personalDataErased: true as const };
    for (const view of [old, finalEarly, finalLate, young, erased]) expect(await parcels().save(view, -1)).toBe(true);

    expect(await due('02-01', '06-15')).toEqual([finalEarly.trackingNumber, old.trackingNumber].sort());
    // The cut-offs themselves are due: a parcel is due from the instant its time is up.
    expect(await due('01-01', '06-02')).toEqual([finalEarly.trackingNumber, old.trackingNumber].sort());
    expect(await due('01-01', '01-03')).toEqual([old.trackingNumber]);
    expect(await due('06-01', '07-02')).toEqual(
      [finalEarly.trackingNumber, finalLate.trackingNumber, old.trackingNumber, young.trackingNumber].sort(),
    );
    expect(await due('01-01', '01-01')).toEqual([old.trackingNumber]);
  });

  it('dueForErasure: of some clients only, or of all but them', async () => {
    const mine = parcel('MINE', '01-01');
    const theirs = { ...parcel('THEIRS', '01-01'), clientId: ctx.id('other-client') };
    for (const view of [mine, theirs]) expect(await parcels().save(view, -1)).toBe(true);
    const dueOf = async (clients: { only: string[] } | { except: string[] }) =>
      (await parcels().dueForErasure({ createdBefore: ms('02-01'), finalBefore: ms('01-01'), limit: 10_000, clients }))
        .filter((trackingNumber) => trackingNumber.startsWith(ctx.id('')))
        .sort();
    expect(await dueOf({ only: [mine.clientId] })).toEqual([mine.trackingNumber]);
    expect(await dueOf({ only: [mine.clientId, theirs.clientId] })).toEqual(
      [mine.trackingNumber, theirs.trackingNumber].sort(),
    );
    expect(await dueOf({ except: [mine.clientId] })).toEqual([theirs.trackingNumber]);
    expect(await dueOf({ except: [] })).toEqual([mine.trackingNumber, theirs.trackingNumber].sort());
    expect(await dueOf({ only: [] })).toEqual([]);
  });

  it('dueForErasure: an erased view is due no more; a view saved with its final status falls due by it', async () => {
    const view = parcel('P1', '06-01');
    await parcels().save(view, -1);
    expect(await due('01-01', '06-15')).toEqual([]);
    const cancelled = { ...parcel('P1', '06-01', '06-02'), revision: 1 };
    expect(await parcels().save(cancelled, 0)).toBe(true);
    expect(await due('01-01', '06-15')).toEqual([view.trackingNumber]);
    const erased = { ...cancelled, revision: 2, personalDataErased: true as const };
    expect(await parcels().saveMany([{ view: erased, expectedRevision: 1 }])).toEqual([true]);
    expect(await due('12-31', '12-31')).toEqual([]);
  });

  it('dueForErasure: a view stored before finalAt existed is final by its activities', async () => {
    const { finalAt: _absent, ...former } = parcel('FORMER', '06-01', '06-02');
    await parcels().save(former, -1);
    expect(await due('01-01', '06-02')).toEqual([former.trackingNumber]);
    expect(await due('01-01', '06-01')).toEqual([]);
  });

  it('dueForErasure: at most `limit` numbers; the sweep pages by erasing what it was given', async () => {
    year = 1990;
    try {
      const views = ['L1', 'L2', 'L3'].map((label) => parcel(label, '01-01'));
      for (const view of views) await parcels().save(view, -1);
      const page = (limit: number) =>
        parcels().dueForErasure({ createdBefore: ms('02-01'), finalBefore: ms('01-01'), limit });
      const first = await page(2);
      expect(first).toHaveLength(2);
      expect(await page(0)).toEqual([]);
      for (const trackingNumber of first) {
        const view = views.find((v) => v.trackingNumber === trackingNumber)!;
        expect(await parcels().save({ ...view, revision: 1, personalDataErased: true }, 0)).toBe(true);
      }
      const rest = await page(2);
      expect(rest).toHaveLength(1);
      expect([...first, ...rest].sort()).toEqual(views.map((v) => v.trackingNumber).sort());
      for (const trackingNumber of rest)
        await parcels().save(
          { ...views.find((v) => v.trackingNumber === trackingNumber)!, revision: 1, personalDataErased: true },
          0,
        );
      expect(await page(2)).toEqual([]);
    } finally {
      year = 2001;
    }
  });
}
