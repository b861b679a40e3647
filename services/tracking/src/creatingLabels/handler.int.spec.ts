/**
 * Many labels in one document on the tracking service: every parcel decided as create-label decides,
 * one RenderLabels for the accepted parcels as read, LB_GN appended on each only once the document
 * exists; a refused parcel is neither rendered nor recorded, and a failed render records nothing.
 */
import { parcelStreamName } from '@parcel-logistics/contracts';
import type { RenderLabels, RenderLabelsReply } from '@parcel-logistics/contracts';
import { sampleParcelOrder } from '@parcel-logistics/domain/testing';
import { createSqliteEventStore } from '@parcel-logistics/eventstore-sqlite';
import { createOrder } from '@parcel-logistics/order';
import { createSqliteProjectionStore } from '@parcel-logistics/projections-sqlite';
import { labelRig } from '../../test/labelRig.ts';
import { createLabels } from './handler.ts';

async function setUp(answer: (payload: RenderLabels['payload']) => RenderLabelsReply) {
  const store = createSqliteEventStore({ file: ':memory:' });
  const projections = createSqliteProjectionStore({ file: ':memory:' });
  const { deps, renders, close } = await labelRig({ store, projections }, answer);
  let n = 0;
  const create = async (clientId: string, serviceType = 'LMD') => {
    n += 1;
    const created = await createOrder(
      deps,
      { clientId, order: sampleParcelOrder({ reference: `REF-${n}` }), serviceType, carrier: 'GLX' },
      { commandId: `c${n}` },
    );
    if (!created.ok) throw new Error('not created');
    return created.trackingNumber;
  };
  const parcels = {
    mine: [await create('demo'), await create('demo')],
    other: await create('other'),
    selfLabel: await create('demo', 'SLF'),
  };
  const events = async (tn: string) => (await store.readStream(parcelStreamName(tn))).map((e) => e.type);
  return { deps, parcels, renders, events, views: projections.parcels, close };
}

const request = (trackingNumbers: string[]) => ({
  clientId: 'demo',
  trackingNumbers,
  format: 'pdf' as const,
  layout: 'a4-4up' as const,
});

test('one render for the accepted parcels as read, in the order asked; LB_GN on each, none on the refused', async () => {
  const t = await setUp(() => ({ ok: true, content: 'JVBERi0=' }));
  try {
    const { mine, other, selfLabel } = t.parcels;
    const asked = [other, mine[1]!, 'PXNOSUCHPARCEL', selfLabel, mine[0]!, mine[1]!];
    expect(await createLabels(t.deps, request(asked), 'labels-1')).toEqual({
      ok: true,
      content: 'JVBERi0=',
      labelled: [mine[1], mine[0]],
      refused: [
        { trackingNumber: other, error: 'ParcelNotFound' },
        { trackingNumber: 'PXNOSUCHPARCEL', error: 'ParcelNotFound' },
        { trackingNumber: selfLabel, error: 'SelfLabelNotAllowed' },
      ],
    });
    expect(t.renders).toHaveLength(1);
    expect(t.renders[0]).toMatchObject({ clientId: 'demo', format: 'pdf', layout: 'a4-4up' });
    expect(t.renders[0]!.parcels.map((p) => [p.trackingNumber, p.clientId, p.revision])).toEqual([
      [mine[1], 'demo', 0],
      [mine[0], 'demo', 0],
    ]);
    for (const tn of mine) expect(await t.events(tn)).toEqual(['ParcelRegistered.v2', 'LabelGenerated.v1']);
    for (const tn of [other, selfLabel]) expect(await t.events(tn)).toEqual(['ParcelRegistered.v2']);
    // Read-your-writes: the views hold LB_GN before the reply.
    for (const tn of mine) expect((await t.views.getForClient('demo', tn))?.revision).toBe(1);
  } finally {
    await t.close();
  }
});

test('a failed render is answered as it is and records nothing on any parcel', async () => {
  const t = await setUp(() => ({ ok: false, error: 'RenderFailed', message: 'Label rendering failed: out of paper' }));
  try {
    expect(await createLabels(t.deps, request(t.parcels.mine), 'labels-1')).toEqual({
      ok: false,
      error: 'RenderFailed',
      message: 'Label rendering failed: out of paper',
    });
    for (const tn of t.parcels.mine) expect(await t.events(tn)).toEqual(['ParcelRegistered.v2']);
  } finally {
    await t.close();
  }
});

test('no parcel can be labelled: no render, no document, nothing recorded', async () => {
  const t = await setUp(() => ({ ok: true, content: 'JVBERi0=' }));
  try {
    expect(await createLabels(t.deps, request([t.parcels.other, t.parcels.selfLabel]), 'labels-1')).toEqual({
      ok: true,
      labelled: [],
      refused: [
        { trackingNumber: t.parcels.other, error: 'ParcelNotFound' },
        { trackingNumber: t.parcels.selfLabel, error: 'SelfLabelNotAllowed' },
      ],
    });
    expect(t.renders).toHaveLength(0);
  } finally {
    await t.close();
  }
});
