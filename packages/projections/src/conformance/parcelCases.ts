import { expect, it } from '@jest/globals';
import { parcelView, type Context } from './context.ts';

const hostile = [
  '$where',
  '{"$gt":""}',
  `' OR '1'='1`,
  'x"); DROP TABLE parcels;--',
  '名前🚚',
  'nul\u0000byte',
  '.*',
  '%',
  '',
];

export function parcelCases(ctx: Context): void {
  const parcels = () => ctx.store.parcels;
  /** A first view of these fields, saved (expected revision -1). */
  const saved = async (fields: Parameters<typeof parcelView>[0]) => {
    const view = parcelView(fields);
    await parcels().save(view, -1);
    return view;
  };

  it('saves a first view with expected revision -1 and reads it back whole', async () => {
    const view = parcelView({ trackingNumber: ctx.id('A1'), clientId: ctx.id('client') });
    expect(await parcels().save(view, -1)).toBe(true);
    expect(await parcels().get(view.trackingNumber)).toEqual(view);
    expect(await parcels().get(ctx.id('NONE'))).toBeNull();
  });

  it('compare-and-set: a stale, replayed or misplaced save is refused and writes nothing', async () => {
    const base = parcelView({ trackingNumber: ctx.id('A1'), clientId: ctx.id('client') });
    const next = { ...base, revision: 1, status: 'cancelled' as const };
    await parcels().save(base, -1);
    expect(await parcels().save(next, 0)).toBe(true);
    expect(await parcels().save(next, 0)).toBe(false);
    expect(await parcels().save({ ...base, revision: 2, carrier: 'stale' }, 0)).toBe(false);
    expect(await parcels().save({ ...base, carrier: 'again' }, -1)).toBe(false);
    expect(await parcels().get(base.trackingNumber)).toEqual(next);

    const absent = parcelView({ trackingNumber: ctx.id('A2'), clientId: ctx.id('client') });
    expect(await parcels().save(absent, 0)).toBe(false);
    expect(await parcels().get(absent.trackingNumber)).toBeNull();
  });

  it('of 20 concurrent saves expecting the same revision, exactly one is applied', async () => {
    const base = await saved({ trackingNumber: ctx.id('A1'), clientId: ctx.id('client') });
    const saves = Array.from({ length: 20 }, (_, i) => ({ ...base, revision: 1, carrier: `C${i}` }));
    const outcomes = await Promise.all(saves.map((view) => parcels().save(view, 0)));
    expect(outcomes.filter(Boolean)).toHaveLength(1);
    expect(await parcels().get(base.trackingNumber)).toEqual(saves[outcomes.indexOf(true)]);
  });

  it('finds a parcel by its carrier and partner number once the view carries it', async () => {
    const view = await saved({ trackingNumber: ctx.id('P1'), clientId: ctx.id('client'), carrier: 'LMX' });
    const partner = ctx.id('LMXP');
    expect(await parcels().getByPartnerTrackingNo('LMX', partner)).toBeNull();
    expect(await parcels().getByPartnerTrackingNo('LMX', '')).toBeNull();
    const registered = { ...view, revision: 1, partnerTrackingNo: partner, partnerName: 'LMX Express' };
    expect(await parcels().save(registered, 0)).toBe(true);
    expect(await parcels().getByPartnerTrackingNo('LMX', partner)).toEqual(registered);
    expect(await parcels().getByPartnerTrackingNo('USX', partner)).toBeNull();
    expect(await parcels().getByPartnerTrackingNo('LMX', partner.toLowerCase())).toBeNull();
  });

  it('finds a parcel by its current partner number only: a number replaced or withdrawn finds nothing', async () => {
    const view = await saved({ trackingNumber: ctx.id('P1'), clientId: ctx.id('client'), carrier: 'LMX' });
    const [first, second] = [ctx.id('LMXP1'), ctx.id('LMXP2')];
    const registered = { ...view, revision: 1, partnerTrackingNo: first };
    const renumbered = { ...view, revision: 2, partnerTrackingNo: second };
    const withdrawn = { ...view, revision: 3, partnerTrackingNo: '' };
    expect(await parcels().save(registered, 0)).toBe(true);
    expect(await parcels().save(renumbered, 1)).toBe(true);
    expect(await parcels().getByPartnerTrackingNo('LMX', first)).toBeNull();
    expect(await parcels().getByPartnerTrackingNo('LMX', second)).toEqual(renumbered);
    expect(await parcels().save(withdrawn, 2)).toBe(true);
    expect(await parcels().getByPartnerTrackingNo('LMX', second)).toBeNull();
  });

  it('a partner number a carrier gives twice: both views are saved, the number finds the parcel that carried it first', async () => {
    const client = ctx.id('client');
    const partner = ctx.id('LMXDUP');
    const [earlier, later] = [ctx.id('D1'), ctx.id('D2')].map((trackingNumber) =>
      parcelView({ trackingNumber, clientId: client, carrier: 'LMX' }),
    );
    for (const view of [earlier!, later!]) {
      expect(await parcels().save(view, -1)).toBe(true);
      expect(await parcels().save({ ...view, revision: 1, partnerTrackingNo: partner }, 0)).toBe(true);
    }
    expect(await parcels().get(later!.trackingNumber)).toEqual({ ...later, revision: 1, partnerTrackingNo: partner });
    expect(await parcels().getByPartnerTrackingNo('LMX', partner)).toEqual({
      ...earlier,
      revision: 1,
      partnerTrackingNo: partner,
    });
    const created = parcelView({
      trackingNumber: ctx.id('D3'),
      clientId: client,
      carrier: 'LMX',
      partnerTrackingNo: partner,
    });
    expect(await parcels().save(created, -1)).toBe(true);
    expect(await parcels().get(created.trackingNumber)).toEqual(created);
  });

  it('saveMany: each view its own compare-and-set in one call, the outcomes in the order given', async () => {
    const client = ctx.id('client');
    const [kept, moved, fresh, absent] = ['M1', 'M2', 'M3', 'M4'].map((n) =>
      parcelView({ trackingNumber: ctx.id(n), clientId: client }),
    );
    await parcels().save(kept!, -1);
    await parcels().save(moved!, -1);
    const outcomes = await parcels().saveMany([
      { view: { ...kept!, revision: 1, status: 'cancelled' }, expectedRevision: 0 },
      { view: { ...moved!, revision: 2, carrier: 'stale' }, expectedRevision: 1 },
      { view: fresh!, expectedRevision: -1 },
      { view: { ...absent!, revision: 1 }, expectedRevision: 0 },
      { view: { ...moved!, carrier: 'again' }, expectedRevision: -1 },
    ]);
    expect(outcomes).toEqual([true, false, true, false, false]);
    expect(await parcels().get(kept!.trackingNumber)).toEqual({ ...kept, revision: 1, status: 'cancelled' });
    expect(await parcels().get(moved!.trackingNumber)).toEqual(moved);
    expect(await parcels().get(fresh!.trackingNumber)).toEqual(fresh);
    expect(await parcels().get(absent!.trackingNumber)).toBeNull();
    expect(await parcels().saveMany([])).toEqual([]);
  });

  it('saveMany: of two concurrent calls expecting the same revisions, exactly one view of each parcel is applied, and each call knows which', async () => {
    const client = ctx.id('client');
    const bases = ['C1', 'C2', 'C3'].map((n) => parcelView({ trackingNumber: ctx.id(n), clientId: client }));
    for (const view of bases) await parcels().save(view, -1);
    const calls = ['first', 'second'].map((carrier) =>
      bases.map((view) => ({ view: { ...view, revision: 1, carrier }, expectedRevision: 0 })),
    );
    const outcomes = await Promise.all(calls.map((entries) => parcels().saveMany(entries)));
    for (const [i, view] of bases.entries()) {
      expect(outcomes.map((o) => o[i])).toContain(true);
      expect(outcomes.map((o) => o[i])).toContain(false);
      const winner = outcomes.findIndex((o) => o[i]);
      expect(await parcels().get(view.trackingNumber)).toEqual(calls[winner]![i]!.view);
    }
  });

  it('saveMany: a partner number another parcel holds already is saved without the key, as with save', async () => {
    const client = ctx.id('client');
    const partner = ctx.id('LMXDUPM');
    const [earlier, later, created, other] = ['E1', 'E2', 'E3', 'E4'].map((n) =>
      parcelView({ trackingNumber: ctx.id(n), clientId: client, carrier: 'LMX' }),
    );
    await parcels().saveMany([
      { view: earlier!, expectedRevision: -1 },
      { view: later!, expectedRevision: -1 },
    ]);
    const registered = [earlier!, later!].map((view) => ({ ...view, revision: 1, partnerTrackingNo: partner }));
    // One call per number, so that which parcel carried it first is known.
    expect(
      await parcels().saveMany([
        { view: registered[0]!, expectedRevision: 0 },
        { view: other!, expectedRevision: -1 },
      ]),
    ).toEqual([true, true]);
    const withNumber = { ...created!, partnerTrackingNo: partner };
    expect(
      await parcels().saveMany([
        { view: registered[1]!, expectedRevision: 0 },
        { view: withNumber, expectedRevision: -1 },
      ]),
    ).toEqual([true, true]);
    for (const view of [...registered, withNumber, other!])
      expect(await parcels().get(view.trackingNumber)).toEqual(view);
    expect(await parcels().getByPartnerTrackingNo('LMX', partner)).toEqual(registered[0]);
  });

  it('the public read gives only what the tracking page may show, and nothing for a parcel with nothing to show', async () => {
    const view = parcelView({ trackingNumber: ctx.id('P1'), clientId: ctx.id('owner'), partnerTrackingNo: 'LMX1' });
    const silent = parcelView({ trackingNumber: ctx.id('P2'), clientId: ctx.id('owner'), activities: [] });
    await parcels().saveMany([
      { view, expectedRevision: -1 },
      { view: silent, expectedRevision: -1 },
    ]);
    const shown = await parcels().getPublicTracking(view.trackingNumber);
    expect(shown).toEqual({
      trackingNumber: view.trackingNumber,
      carrier: 'LMX',
      partnerTrackingNo: 'LMX1',
      activities: view.activities.map((a) => ({
        dateTime: a.dateTime,
        statusCode: a.statusCode,
        statusDesc: a.statusDesc,
        location: a.location,
      })),
    });
    const text = JSON.stringify(shown);
    for (const secret of [
      view.clientId,
      view.customTrackingNum,
      'Tan Ah Kow',
      '+6591234567',
      '1 Fusionopolis Way',
      'declared',
    ])
      expect(text).not.toContain(secret);
    expect(await parcels().getPublicTracking(silent.trackingNumber)).toBeNull();
    expect(await parcels().getPublicTracking(ctx.id('NONE'))).toBeNull();
    for (const key of hostile) expect(await parcels().getPublicTracking(key)).toBeNull();
  });

  it("reads another account's parcel exactly as a missing one", async () => {
    const view = await saved({
      trackingNumber: ctx.id('A1'),
      clientId: ctx.id('owner'),
      customTrackingNum: ctx.id('ref'),
    });
    const other = ctx.id('other');
    expect(await parcels().getForClient(view.clientId, view.trackingNumber)).toEqual(view);
    expect(await parcels().getForClient(other, view.trackingNumber)).toBeNull();
    expect(await parcels().getByReference(view.clientId, view.customTrackingNum)).toEqual(view);
    expect(await parcels().getByReference(other, view.customTrackingNum)).toBeNull();
    expect((await parcels().getManyForClient(other, [view.trackingNumber])).size).toBe(0);
  });

  it('getManyForClient answers only the account’s known parcels, duplicates and unknown numbers included', async () => {
    const client = ctx.id('client');
    const mine = [ctx.id('M1'), ctx.id('M2'), ctx.id('M3')];
    for (const trackingNumber of mine) await saved({ trackingNumber, clientId: client });
    await saved({ trackingNumber: ctx.id('X1'), clientId: ctx.id('other') });

    const found = await parcels().getManyForClient(client, [
      mine[0]!,
      mine[0]!,
      ctx.id('X1'),
      ctx.id('NONE'),
      mine[2]!,
      mine[0]!,
    ]);
    expect([...found.keys()].sort()).toEqual([mine[0], mine[2]]);
    expect(found.get(mine[2]!)?.trackingNumber).toBe(mine[2]);
    expect((await parcels().getManyForClient(client, [])).size).toBe(0);
  });

  it('revisions answers the stored revision of each existing view, whatever its account', async () => {
    const [a, b] = [ctx.id('R1'), ctx.id('R2')];
    await saved({ trackingNumber: a, clientId: ctx.id('client') });
    const second = await saved({ trackingNumber: b, clientId: ctx.id('other') });
    expect(await parcels().save({ ...second, revision: 3 }, 0)).toBe(true);
    const found = await parcels().revisions([a, b, ctx.id('NONE'), a, '$where', '{"$gt":""}']);
    expect(Object.fromEntries(found)).toEqual({ [a]: 0, [b]: 3 });
    expect((await parcels().revisions([])).size).toBe(0);
  });

  it('getManyForClient answers 1000 numbers in one call', async () => {
    const client = ctx.id('client');
    const numbers = Array.from({ length: 1000 }, (_, i) => ctx.id(`N${i}`));
    for (const trackingNumber of numbers.slice(0, 600)) await saved({ trackingNumber, clientId: client });
    const found = await parcels().getManyForClient(client, numbers);
    expect(found.size).toBe(600);
    expect(found.has(numbers[599]!)).toBe(true);
    expect(found.has(numbers[600]!)).toBe(false);
  });

  it('matches tracking numbers and references exactly: no case folding, no trimming', async () => {
    const view = await saved({
      trackingNumber: ctx.id('ABC123'),
      clientId: ctx.id('client'),
      customTrackingNum: ctx.id('Ref-X'),
    });
    for (const near of [view.trackingNumber.toLowerCase(), `${view.trackingNumber} `, ` ${view.trackingNumber}`]) {
      expect(await parcels().getForClient(view.clientId, near)).toBeNull();
      expect((await parcels().getManyForClient(view.clientId, [near])).size).toBe(0);
    }
    for (const near of [
      view.customTrackingNum.toUpperCase(),
      view.customTrackingNum.toLowerCase(),
      `${view.customTrackingNum} `,
    ]) {
      expect(await parcels().getByReference(view.clientId, near)).toBeNull();
    }
    expect(await parcels().getForClient(view.clientId.toUpperCase(), view.trackingNumber)).toBeNull();
  });

  it('stores hostile strings literally and matches them only literally', async () => {
    const client = ctx.id('client');
    for (const text of hostile) {
      const view = parcelView({
        trackingNumber: `${ctx.id('H')}${text}`,
        clientId: client,
        customTrackingNum: text,
        partnerName: text,
      });
      expect(await parcels().save(view, -1)).toBe(true);
      expect(await parcels().getForClient(client, view.trackingNumber)).toEqual(view);
      expect(await parcels().getByReference(client, text)).toEqual(view);
    }
    const numbers = hostile.map((text) => `${ctx.id('H')}${text}`);
    expect([...(await parcels().getManyForClient(client, numbers)).keys()].sort()).toEqual([...numbers].sort());
    expect(await parcels().getForClient(client, ctx.id('Hnul'))).toBeNull();
    expect(await parcels().getByReference(client, 'nul')).toBeNull();
    for (const text of hostile) {
      expect(await parcels().getByReference(text, text)).toBeNull();
      expect((await parcels().getManyForClient(text, numbers)).size).toBe(0);
    }
  });

  it('checkpoints: none until one is saved, then the last one saved, per subscription id, one set for views and manifests', async () => {
    const checkpoints = () => parcels().checkpoints;
    expect(await checkpoints().load(ctx.id('views'))).toBeUndefined();
    const view = parcelView({ trackingNumber: ctx.id('C1'), clientId: ctx.id('client') });
    // Saved while a view's save is under way, as the subscription does after its page.
    const [written] = await Promise.all([parcels().save(view, -1), checkpoints().save(ctx.id('views'), 41)]);
    expect(written).toBe(true);
    await checkpoints().save(ctx.id('views'), 2 ** 40);
    await ctx.store.manifests.checkpoints.save(ctx.id('other'), 7);
    expect(await checkpoints().load(ctx.id('views'))).toBe(2 ** 40);
    expect(await checkpoints().load(ctx.id('other'))).toBe(7);
    expect(await ctx.store.manifests.checkpoints.load(ctx.id('views'))).toBe(2 ** 40);
    expect(await parcels().get(view.trackingNumber)).toEqual(view);
  });
}
