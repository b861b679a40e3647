import type { ParcelEvent } from './events.ts';
import { cancellation, parcelDecider, ParcelError } from './decider.ts';
import type { ParcelCommand } from './decider.ts';
import { sampleRegistered } from '../../test/fixtures.ts';
import { givenWhenThen } from '../../test/givenWhenThen.ts';

const now = new Date('2026-11-22T06:00:00Z');
const later = new Date('2026-11-22T07:00:00Z');
const TN = 'PX000000000000001Y';

const registered: ParcelEvent = sampleRegistered(TN, now);

const given = givenWhenThen(parcelDecider, ParcelError);

const label = (
  selfLabelServiceTypes: string[] = ['SLF'],
  by: { clientId?: string; origin?: string; destination?: string } = {},
): ParcelCommand => ({
  type: 'GenerateLabel',
  data: {
    clientId: 'demo',
    origin: 'SG',
    destination: 'SG',
    ...by,
    labelType: 'CN23',
    direction: 'vertical',
    selfLabelServiceTypes,
    now: later,
  },
});

const carrierEvent = (code: string, eventTime = later): ParcelCommand => ({
  type: 'RecordCarrierEvent',
  data: {
    carrierCode: code,
    statusCode: 'DL_DL',
    eventTime,
    location: 'SG',
    remarks: '',
    receiveBy: 'Tan',
    pod: ['pod-1.jpg'],
    now: later,
  },
});

describe('parcel decider', () => {
  test('RegisterParcel on no stream -> ParcelRegistered (DR_DR)', () => {
    const { registeredAt, ...data } = registered.data as Extract<ParcelEvent, { type: 'ParcelRegistered' }>['data'];
    given()
      .when({ type: 'RegisterParcel', data: { ...data, now: registeredAt } })
      .then([registered]);
  });

  test('RegisterParcel on an existing parcel is refused', () => {
    const { registeredAt, ...data } = registered.data as Extract<ParcelEvent, { type: 'ParcelRegistered' }>['data'];
    given(registered)
      .when({ type: 'RegisterParcel', data: { ...data, now: registeredAt } })
      .thenThrows('ParcelAlreadyRegistered');
  });

  test('"any parcel | label generation | parcel found and not a self-label service" -> LabelGenerated', () => {
    given(registered)
      .when(label())
      .then([
        {
          type: 'LabelGenerated',
          data: { trackingNumber: TN, labelType: 'CN23', direction: 'vertical', generatedAt: later },
        },
      ]);
  });

  test('"The package cannot undergo this operation": a self-label parcel gets no label', () => {
    const slf = { ...registered, data: { ...registered.data, serviceType: 'SLF' } } as ParcelEvent;
    given(slf).when(label()).thenThrows('SelfLabelNotAllowed');
  });

  test("tenant isolation: another account's parcel is answered as a missing one", () => {
    given(registered)
      .when(label(['SLF'], { clientId: 'other' }))
      .thenThrows('ParcelNotFound');
    given(registered)
      .when({ type: 'CancelParcel', data: { clientId: 'other', now: later } })
      .thenThrows('ParcelNotFound');
  });

  test('"Origin = sender_country, Destination = recipient_country, exactly": any other is not found', () => {
    given(registered)
      .when(label(['SLF'], { origin: 'MY' }))
      .thenThrows('ParcelNotFound');
    given(registered)
      .when(label(['SLF'], { destination: 'sg' }))
      .thenThrows('ParcelNotFound');
  });

  test('commands other than RegisterParcel on no stream: ParcelNotFound', () => {
    given().when(label()).thenThrows('ParcelNotFound');
    given()
      .when({ type: 'CancelParcel', data: { clientId: 'demo', now } })
      .thenThrows('ParcelNotFound');
  });

  test('"order routed to the particular carrier | cancel-orders" -> ParcelCancelled; again -> already cancelled ("Canceled")', () => {
    given(registered)
      .when({ type: 'CancelParcel', data: { clientId: 'demo', now: later } })
      .then([{ type: 'ParcelCancelled', data: { trackingNumber: TN, cancelledAt: later } }]);
    given(registered, { type: 'ParcelCancelled', data: { trackingNumber: TN, cancelledAt: later } })
      .when({ type: 'CancelParcel', data: { clientId: 'demo', now: later } })
      .thenThrows('ParcelAlreadyCancelled');
  });

  test('carrier registration is recorded once', () => {
    const cmd: ParcelCommand = {
      type: 'RecordCarrierRegistration',
      data: { partnerTrackingNo: 'LMX1', partnerName: 'LMX Express', now: later },
    };
    given(registered)
      .when(cmd)
      .then([
        {
          type: 'CarrierRegistered',
          data: {
            trackingNumber: TN,
            carrier: 'LMX',
            partnerTrackingNo: 'LMX1',
            partnerName: 'LMX Express',
            registeredAt: later,
          },
        },
      ]);
    given(registered, ...given(registered).when(cmd).events())
      .when(cmd)
      .thenThrows('AlreadyRegisteredWithCarrier');
  });

  test('failed registrations count their attempts', () => {
    const fail: ParcelCommand = {
      type: 'RecordCarrierRegistrationFailure',
      data: { reason: 'ECONNREFUSED', now: later },
    };
    const first = given(registered).when(fail).events();
    given(registered, ...first)
      .when(fail)
      .then([
        {
          type: 'CarrierRegistrationFailed',
          data: { trackingNumber: TN, carrier: 'LMX', attempt: 2, reason: 'ECONNREFUSED', failedAt: later },
        },
      ]);
  });

  test('"A replayed event (same carrier, number, code and time) is recorded once"', () => {
    const first = given(registered).when(carrierEvent('DELIVERED')).events();
    expect(first).toHaveLength(1);
    given(registered, ...first)
      .when(carrierEvent('DELIVERED'))
      .then([]);
    given(registered, ...first)
      .when(carrierEvent('DELIVERED', new Date('2026-11-22T08:00:00Z')))
      .then([expect.objectContaining({ type: 'CarrierEventRecorded' }) as unknown as ParcelEvent]);
  });

  test('cancel-orders asks the carrier only for an own, registered, live parcel of a carrier that cancels', () => {
    const request = { clientId: 'demo', cancellableCarriers: ['LMX'] };
    const carrierRegistered: ParcelEvent = {
      type: 'CarrierRegistered',
      data: { trackingNumber: TN, carrier: 'LMX', partnerTrackingNo: 'LMX1', partnerName: 'LMX', registeredAt: later },
    };
    const cancelled: ParcelEvent = { type: 'ParcelCancelled', data: { trackingNumber: TN, cancelledAt: later } };
    expect(cancellation(given().state(), request)).toEqual({ refusal: 'ParcelNotFound' });
    expect(cancellation(given(registered, carrierRegistered).state(), { ...request, clientId: 'other' })).toEqual({
      refusal: 'ParcelNotFound',
    });
    expect(cancellation(given(registered, carrierRegistered).state(), { ...request, cancellableCarriers: [] })).toEqual(
      {
        refusal: 'CarrierCannotCancel',
      },
    );
    expect(cancellation(given(registered).state(), request)).toEqual({ refusal: 'NotRegisteredWithCarrier' });
    expect(cancellation(given(registered, carrierRegistered, cancelled).state(), request)).toEqual({
      refusal: 'ParcelAlreadyCancelled',
    });
    expect(cancellation(given(registered, carrierRegistered).state(), request)).toEqual({
      carrier: 'LMX',
      partnerTrackingNo: 'LMX1',
    });
  });
});

describe('parcel decider: personal data erasure (docs/personal-data.md)', () => {
  const erase = (clientId?: string, reason: 'request' | 'retention' = 'request'): ParcelCommand => ({
    type: 'ErasePersonalData',
    data: { ...(clientId === undefined ? {} : { clientId }), reason, now: later },
  });
  const erased: ParcelEvent = {
    type: 'PersonalDataErased',
    data: { trackingNumber: TN, reason: 'request', erasedAt: later },
  };

  test('ErasePersonalData by its owner -> PersonalDataErased, holding nothing personal', () => {
    given(registered).when(erase('demo')).then([erased]);
  });

  test('by the retention policy (no account) -> PersonalDataErased with its reason', () => {
    given(registered)
      .when(erase(undefined, 'retention'))
      .then([{ ...erased, data: { ...erased.data, reason: 'retention' } }]);
  });

  test("another account's parcel, and no parcel, are refused as not found", () => {
    given(registered).when(erase('other')).thenThrows('ParcelNotFound');
    given().when(erase('demo')).thenThrows('ParcelNotFound');
  });

  test('erasing again records nothing', () => {
    given(registered, erased).when(erase('demo')).then([]);
  });

  test('no label once erased', () => {
    given(registered, erased).when(label()).thenThrows('PersonalDataErased');
  });

  test('a carrier event after erasure keeps only its public place and no signer, remarks or proof of delivery', () => {
    const [event] = given(registered, erased)
      .when({
        type: 'RecordCarrierEvent',
        data: {
          carrierCode: 'DELIVERED',
          statusCode: 'DL_DL',
          eventTime: later,
          location: '1 Raffles Place',
          remarks: 'Left with Mdm Wong',
          receiveBy: 'Mdm Wong',
          pod: ['pod.jpg'],
          now: later,
        },
      })
      .events();
    expect(event).toMatchObject({ data: { statusCode: 'DL_DL', location: '', remarks: '', receiveBy: '', pod: [] } });
  });
});
