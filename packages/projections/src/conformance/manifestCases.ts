import { expect, it } from '@jest/globals';
import type { StoredManifest } from '@parcel-logistics/contracts';
import { parcelView, type Context } from './context.ts';

export function manifest(
  fields: Pick<StoredManifest, 'manifestId' | 'clientId'> & Partial<StoredManifest>,
): StoredManifest {
  return {
    carrier: 'LMX',
    carrierName: 'LMX Express',
    createdAt: '2026-11-22T18:00:00+08:00',
    createdMs: Date.parse('2026-11-22T18:00:00+08:00'),
    parcels: [
      {
        trackingNumber: 'PX7K2P9S4W8Y1Q3T55',
        customTrackingNum: 'ORDER-1001',
        serviceType: 'LMD',
        destination: 'SG',
        weight: { value: 1.25, unit: 'kg' },
        pieces: 2,
        partnerTrackingNo: 'LMX7Q2K9D4M1X8ZP',
      },
    ],
    ...fields,
  };
}

export function manifestCases(ctx: Context): void {
  const parcels = () => ctx.store.parcels;
  const manifests = () => ctx.store.manifests;

  it('open parcels for a manifest: the account’s, of the carrier, registered with it, not cancelled, on none yet; oldest first', async () => {
    const client = ctx.id('client');
    const registered = (n: string, createdAt: string, extra: Partial<Parameters<typeof parcelView>[0]> = {}) =>
      parcelView({
        trackingNumber: ctx.id(n),
        clientId: client,
        carrier: 'LMX',
        partnerTrackingNo: ctx.id(`P${n}`),
        createdAt,
        ...extra,
      });
    const views = [
      registered('B', '2026-11-22T10:00:00+08:00'),
      registered('A', '2026-11-22T11:00:00+08:00'),
      registered('C', '2026-11-22T09:00:00+08:00', { partnerTrackingNo: '' }),
      registered('D', '2026-11-22T09:00:00+08:00', { status: 'cancelled' }),
      registered('E', '2026-11-22T09:00:00+08:00', { manifestId: ctx.id('M0') }),
      registered('F', '2026-11-22T09:00:00+08:00', { carrier: 'LMX-PU' }),
      registered('G', '2026-11-22T09:00:00+08:00', { clientId: ctx.id('other') }),
    ];
    for (const v of views) expect(await parcels().save(v, -1)).toBe(true);
    const open = await parcels().openForManifest(client, 'LMX', 10);
    expect(open.map((v) => v.trackingNumber)).toEqual([ctx.id('B'), ctx.id('A')]);
    expect(open[0]).toEqual(views[0]);
    expect((await parcels().openForManifest(client, 'LMX', 1)).map((v) => v.trackingNumber)).toEqual([ctx.id('B')]);
    expect((await parcels().openForManifest(client, 'LMX-PU', 10)).map((v) => v.trackingNumber)).toEqual([ctx.id('F')]);
    expect(await parcels().openForManifest(ctx.id('other'), 'LMX', 10)).toHaveLength(1);
    expect(await parcels().openForManifest(client, `' OR '1'='1`, 10)).toEqual([]);

    // Put on a manifest (its view records it): no longer open.
    const marked = { ...views[0]!, revision: 1, manifestId: ctx.id('M1') };
    expect(await parcels().save(marked, 0)).toBe(true);
    expect((await parcels().openForManifest(client, 'LMX', 10)).map((v) => v.trackingNumber)).toEqual([ctx.id('A')]);
  });

  it('a manifest stored reads back whole, for its own account only; a second put of the id changes nothing', async () => {
    const m = manifest({ manifestId: ctx.id('M1'), clientId: ctx.id('client') });
    await manifests().put(m);
    expect(await manifests().getForClient(m.clientId, m.manifestId)).toEqual(m);
    expect(await manifests().getForClient(ctx.id('other'), m.manifestId)).toBeNull();
    expect(await manifests().getForClient(m.clientId, ctx.id('NONE'))).toBeNull();
    await manifests().put({ ...m, carrier: 'LMX-PU', parcels: [] });
    expect(await manifests().getForClient(m.clientId, m.manifestId)).toEqual(m);
  });

  it('lists the account’s manifests newest first, by carrier, at most limit, page after page with before', async () => {
    const client = ctx.id('client');
    const at = (minute: number) => {
      const createdAt = `2026-11-22T18:${String(minute).padStart(2, '0')}:00+08:00`;
      return { createdAt, createdMs: Date.parse(createdAt) };
    };
    const made = [
      manifest({ manifestId: ctx.id('M1'), clientId: client, ...at(1) }),
      manifest({ manifestId: ctx.id('M2'), clientId: client, ...at(2), carrier: 'LMX-PU' }),
      manifest({ manifestId: ctx.id('M3'), clientId: client, ...at(3) }),
      // Same time as M3: the id decides.
      manifest({ manifestId: ctx.id('M4'), clientId: client, ...at(3) }),
      manifest({ manifestId: ctx.id('M5'), clientId: ctx.id('other'), ...at(5) }),
    ];
    for (const m of made) await manifests().put(m);
    const ids = (list: StoredManifest[]) => list.map((m) => m.manifestId);
    expect(ids(await manifests().listForClient(client, { limit: 10 }))).toEqual(['M4', 'M3', 'M2', 'M1'].map(ctx.id));
    expect(await manifests().listForClient(client, { limit: 10 })).toContainEqual(made[1]);
    expect(ids(await manifests().listForClient(client, { limit: 10, carrier: 'LMX' }))).toEqual(
      ['M4', 'M3', 'M1'].map(ctx.id),
    );
    expect(ids(await manifests().listForClient(client, { limit: 2 }))).toEqual(['M4', 'M3'].map(ctx.id));
    expect(ids(await manifests().listForClient(client, { limit: 2, before: ctx.id('M3') }))).toEqual(
      ['M2', 'M1'].map(ctx.id),
    );
    expect(ids(await manifests().listForClient(client, { limit: 2, before: ctx.id('M4'), carrier: 'LMX' }))).toEqual(
      ['M3', 'M1'].map(ctx.id),
    );
    // Another account's id, or an unknown one, as a cursor: nothing.
    expect(await manifests().listForClient(client, { limit: 10, before: ctx.id('M5') })).toEqual([]);
    expect(await manifests().listForClient(client, { limit: 10, before: '{"$gt":""}' })).toEqual([]);
    expect(await manifests().listForClient(ctx.id('nobody'), { limit: 10 })).toEqual([]);
  });
}
