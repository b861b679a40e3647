/**
 * One flow for create-label: a RenderLabel that carries the parcel is rendered from it, with no read of the views.
 * Many labels in one document: the parcels carried, in their order, and never another account's.
 */
import type { StoredParcelView } from '@parcel-logistics/contracts';
import type { ParcelViewStore } from '@parcel-logistics/projections';
import { myPickup, sgLockerCod } from '../../test/fixtures.ts';
import { renderLabel, renderLabels } from './handler.ts';
import type { LabelJob, LabelsJob } from '../types.ts';

/** A view store that must not be read, and one that holds the fixture. */
const unread = new Proxy({} as ParcelViewStore, {
  get: (_target, name) => () => {
    throw new Error(`the view store was read (${String(name)})`);
  },
});
const holding = (view: StoredParcelView): ParcelViewStore =>
  ({
    getForClient: async (clientId: string, tn: string) =>
      clientId === view.clientId && tn === view.trackingNumber ? view : null,
  }) as unknown as ParcelViewStore;

const recorder = () => {
  const jobs: LabelJob[] = [];
  return { jobs, renderer: { render: async (job: LabelJob) => (jobs.push(job), 'rendered') } };
};

const command = {
  clientId: sgLockerCod.clientId,
  trackingNumber: sgLockerCod.trackingNumber,
  format: 'cn23' as const,
  direction: 'vertical' as const,
};

test('the parcel the command carries is rendered, and the views are not read', async () => {
  const { jobs, renderer } = recorder();
  expect(await renderLabel({ views: unread, renderer }, { ...command, parcel: sgLockerCod })).toEqual({
    ok: true,
    content: 'rendered',
  });
  expect(jobs).toEqual([{ format: 'cn23', view: sgLockerCod, direction: 'vertical' }]);
});

test('a carried parcel of another account reads as missing', async () => {
  const { jobs, renderer } = recorder();
  expect(
    await renderLabel({ views: unread, renderer }, { ...command, clientId: 'other', parcel: sgLockerCod }),
  ).toEqual({ ok: false, error: 'ParcelNotFound' });
  expect(jobs).toHaveLength(0);
});

test('without a carried parcel the view is read, for the account only', async () => {
  const { jobs, renderer } = recorder();
  expect(await renderLabel({ views: holding(sgLockerCod), renderer }, command)).toEqual({
    ok: true,
    content: 'rendered',
  });
  expect(await renderLabel({ views: holding(sgLockerCod), renderer }, { ...command, clientId: 'other' })).toEqual({
    ok: false,
    error: 'ParcelNotFound',
  });
  expect(jobs).toHaveLength(1);
});

describe('RenderLabels (many labels in one document)', () => {
  const many = () => {
    const jobs: LabelsJob[] = [];
    return { jobs, renderer: { renderMany: async (job: LabelsJob) => (jobs.push(job), 'document') } };
  };
  const other = { ...myPickup, clientId: 'other' };

  test('the carried parcels are rendered in their order, on the sheet asked', async () => {
    const { jobs, renderer } = many();
    const parcels = [myPickup, sgLockerCod];
    expect(await renderLabels({ renderer }, { clientId: 'demo', format: 'pdf', layout: 'a4-4up', parcels })).toEqual({
      ok: true,
      content: 'document',
    });
    expect(await renderLabels({ renderer }, { clientId: 'demo', format: 'zpl', layout: 'label', parcels })).toEqual({
      ok: true,
      content: 'document',
    });
    expect(jobs).toEqual([
      { format: 'pdf', sheet: 'a4-4up', views: parcels },
      { format: 'zpl', views: parcels },
    ]);
  });

  test.each([
    ['another account’s parcel', other],
    ['a parcel whose personal data was erased', { ...myPickup, personalDataErased: true as const }],
  ])('%s is never rendered: the whole document fails', async (_name, parcel) => {
    const { jobs, renderer } = many();
    const reply = await renderLabels(
      { renderer },
      { clientId: 'demo', format: 'pdf', layout: 'label', parcels: [sgLockerCod, parcel] },
    );
    expect(reply).toEqual({
      ok: false,
      error: 'RenderFailed',
      message: expect.stringMatching(/^Label rendering failed/),
    });
    expect(jobs).toHaveLength(0);
  });
});
