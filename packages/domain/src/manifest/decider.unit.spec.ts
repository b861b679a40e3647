import type { ParcelEvent } from '../parcel/events.ts';
import { cancellation, foldParcel, parcelDecider, ParcelError } from '../parcel/decider.ts';
import type { ParcelCommand } from '../parcel/decider.ts';
import { evolveParcelView } from '../parcel/parcelView.ts';
import { sampleRegistered } from '../../test/fixtures.ts';
import { givenWhenThen } from '../../test/givenWhenThen.ts';
import { manifestDecider } from './decider.ts';
import type { ManifestEvent, ManifestLine } from './events.ts';

const now = new Date('2026-11-22T06:00:00Z');
const later = new Date('2026-11-22T10:00:00Z');
const TN = 'PX000000000000001Y';

const registered: ParcelEvent = sampleRegistered(TN, now);
const accepted: ParcelEvent = {
  type: 'CarrierRegistered',
  data: { trackingNumber: TN, carrier: 'LMX', partnerTrackingNo: 'LMX1', partnerName: 'LMX', registeredAt: now },
};
const manifested = (manifestId: string): ParcelEvent => ({
  type: 'ParcelManifested',
  data: { trackingNumber: TN, carrier: 'LMX', manifestId, manifestedAt: later },
});
const addTo = (manifestId: string, by: { clientId?: string; carrier?: string } = {}): ParcelCommand => ({
  type: 'AddToManifest',
  data: { clientId: 'demo', carrier: 'LMX', manifestId, now: later, ...by },
});

const given = givenWhenThen(parcelDecider, ParcelError);

describe('parcel decider: AddToManifest', () => {
  test('a parcel the carrier accepted -> ParcelManifested', () => {
    given(registered, accepted)
      .when(addTo('MF1'))
      .then([manifested('MF1')]);
  });

  test('on this manifest already: nothing more (a redelivery, the worker after the request)', () => {
    given(registered, accepted, manifested('MF1')).when(addTo('MF1')).then([]);
  });

  test('on another manifest: refused, so two manifests never hold one parcel', () => {
    given(registered, accepted, manifested('MF1')).when(addTo('MF2')).thenThrows('ParcelManifested');
  });

  test('cancelled, not accepted by the carrier, another account’s or another carrier’s: refused', () => {
    const cancelled: ParcelEvent = { type: 'ParcelCancelled', data: { trackingNumber: TN, cancelledAt: now } };
    given(registered, accepted, cancelled).when(addTo('MF1')).thenThrows('ParcelAlreadyCancelled');
    given(registered).when(addTo('MF1')).thenThrows('NotRegisteredWithCarrier');
    given(registered, accepted)
      .when(addTo('MF1', { clientId: 'other' }))
      .thenThrows('ParcelNotFound');
    given(registered, accepted)
      .when(addTo('MF1', { carrier: 'LMX-PU' }))
      .thenThrows('ParcelNotFound');
  });

  test('a manifested parcel can no longer be cancelled: cancellation and CancelParcel refuse it', () => {
    const state = foldParcel([registered, accepted, manifested('MF1')]);
    expect(cancellation(state, { clientId: 'demo', cancellableCarriers: ['LMX'] })).toEqual({
      refusal: 'ParcelManifested',
    });
    given(registered, accepted, manifested('MF1'))
      .when({ type: 'CancelParcel', data: { clientId: 'demo', now: later } })
      .thenThrows('ParcelManifested');
  });

  test('the view records the manifest and shows MF_MF first', () => {
    let view = evolveParcelView(null, registered, { eventId: 'e0', revision: 0 });
    view = evolveParcelView(view, accepted, { eventId: 'e1', revision: 1 });
    const once = evolveParcelView(view, manifested('MF1'), { eventId: 'e2', revision: 2 });
    expect(once?.manifestId).toBe('MF1');
    expect(once?.activities[0]).toMatchObject({
      statusCode: 'MF_MF',
      statusDesc: 'Closed on the carrier’s end-of-day manifest',
      dateTime: '2026-11-22T18:00:00+08:00',
    });
  });
});

const line = (trackingNumber: string): ManifestLine => ({
  trackingNumber,
  customTrackingNum: `R-${trackingNumber}`,
  serviceType: 'LMD',
  destination: 'SG',
  weight: { value: 1.25, unit: 'kg' },
  pieces: 2,
  partnerTrackingNo: `P-${trackingNumber}`,
});
const recorded: ManifestEvent = {
  type: 'ManifestRecorded',
  data: { manifestId: 'MF1', clientId: 'demo', carrier: 'LMX', lines: [line('A'), line('B')], recordedAt: now },
};
const givenManifest = givenWhenThen(manifestDecider);

describe('manifest decider', () => {
  test('recorded once with its list; a redelivered command records nothing', () => {
    const record = {
      type: 'RecordManifest' as const,
      data: { manifestId: 'MF1', clientId: 'demo', carrier: 'LMX', lines: [line('A'), line('B')], now },
    };
    givenManifest().when(record).then([recorded]);
    givenManifest(recorded).when(record).then([]);
  });

  test('completed once with the parcels marked, in the list’s order, numbers not on it dropped', () => {
    const complete = { type: 'CompleteManifest' as const, data: { trackingNumbers: ['B', 'X', 'A'], now: later } };
    const completed: ManifestEvent = {
      type: 'ManifestCompleted',
      data: { manifestId: 'MF1', trackingNumbers: ['A', 'B'], completedAt: later },
    };
    givenManifest(recorded).when(complete).then([completed]);
    givenManifest(recorded, completed).when(complete).then([]);
    givenManifest().when(complete).thenThrows('no manifest to complete');
  });
});
