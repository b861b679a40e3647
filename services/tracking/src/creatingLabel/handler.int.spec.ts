/**
 * One flow for create-label, the parcel read once. A2 create-label on the tracking
 * service: one read of the stream, the label service handed the parcel as read (so it reads nothing),
 * LB_GN appended only once the label is rendered.
 */
import { parcelStreamName } from '@parcel-logistics/contracts';
import type { RenderLabel, RenderLabelReply } from '@parcel-logistics/contracts';
import { sampleParcelOrder } from '@parcel-logistics/domain/testing';
import type { EventStore } from '@parcel-logistics/eventstore';
import { createSqliteEventStore } from '@parcel-logistics/eventstore-sqlite';
import { createOrder } from '@parcel-logistics/order';
import { createSqliteProjectionStore } from '@parcel-logistics/projections-sqlite';
import { labelRig } from '../../test/labelRig.ts';
import { createLabel } from './handler.ts';

async function setUp(answer: (payload: RenderLabel['payload']) => RenderLabelReply) {
  const store = createSqliteEventStore({ file: ':memory:' });
  const projections = createSqliteProjectionStore({ file: ':memory:' });
  let streamReads = 0;
  const eventStore: EventStore = { ...store, readStream: (...args) => ((streamReads += 1), store.readStream(...args)) };
  const { deps, renders, close } = await labelRig({ store, eventStore, projections }, answer);
  const created = await createOrder(
    deps,
    { clientId: 'demo', order: sampleParcelOrder(), serviceType: 'LMD', carrier: 'GLX' },
    { commandId: 'c1' },
  );
  if (!created.ok) throw new Error('not created');
  streamReads = 0;
  const events = async () => (await store.readStream(parcelStreamName(created.trackingNumber))).map((e) => e.type);
  return { deps, tn: created.trackingNumber, renders, streamReads: () => streamReads, events, close };
}

const request = (tn: string) => ({
  clientId: 'demo',
  trackingNumber: tn,
  origin: 'SG',
  destination: 'SG',
  labelType: 'CN23',
  direction: 'vertical' as const,
});

test('create-label reads the stream once, hands the parcel as read to the label service, then records LB_GN', async () => {
  const t = await setUp(() => ({ ok: true, content: 'JVBERi0=' }));
  try {
    const reply = await createLabel(t.deps, request(t.tn), 'label-1');
    expect(reply).toEqual({ ok: true, content: 'JVBERi0=' });
    expect(t.streamReads()).toBe(1);
    expect(t.renders).toHaveLength(1);
    expect(t.renders[0]).toMatchObject({
      clientId: 'demo',
      trackingNumber: t.tn,
      format: 'cn23',
      direction: 'vertical',
    });
    expect(t.renders[0]!.parcel).toMatchObject({
      trackingNumber: t.tn,
      clientId: 'demo',
      revision: 0,
      order: { sender_country: 'SG' },
    });
    expect(await t.events()).toEqual(['ParcelRegistered.v2', 'LabelGenerated.v1']);
  } finally {
    await t.close();
  }
});

test('a failed render is answered as it is and records nothing', async () => {
  const t = await setUp(() => ({ ok: false, error: 'RenderFailed', message: 'Label rendering failed: out of paper' }));
  try {
    expect(await createLabel(t.deps, request(t.tn), 'label-1')).toEqual({
      ok: false,
      error: 'RenderFailed',
      message: 'Label rendering failed: out of paper',
    });
    expect(await t.events()).toEqual(['ParcelRegistered.v2']);
  } finally {
    await t.close();
  }
});

test("spec A2: another account's parcel reads as missing, without a render", async () => {
  const t = await setUp(() => ({ ok: true, content: 'JVBERi0=' }));
  try {
    expect(await createLabel(t.deps, { ...request(t.tn), clientId: 'other' }, 'label-1')).toEqual({
      ok: false,
      error: 'ParcelNotFound',
    });
    expect(t.renders).toHaveLength(0);
    expect(await t.events()).toEqual(['ParcelRegistered.v2']);
  } finally {
    await t.close();
  }
});
