/** The locker a registration records; routing and locker B's choice are tested through validation (packages/contracts). */
import { sampleParcelOrder } from '../../test/fixtures.ts';
import { lockerStationFor } from './routing.ts';

const chosen = {
  zipcode: '238858',
  station_name: 'Orchard Gateway Locker',
  station_address: '277 Orchard Road',
  address_detail: 'Level 1 lobby',
  distance: 120.5,
  station_code: 'SGL0003',
};
const station = {
  code: 'SGL0001',
  name: 'Raffles Place MRT Locker',
  address: '5 Raffles Place',
  addressDetail: 'Exit B, basement 1',
  zipcode: '048618',
};

test('"locker_type A": the station as the client sent it', () => {
  const order = sampleParcelOrder({ locker_type: 'A', locker_station: chosen });
  expect(lockerStationFor(order, undefined)).toEqual({
    code: 'SGL0003',
    name: 'Orchard Gateway Locker',
    address: '277 Orchard Road',
    addressDetail: 'Level 1 lobby',
    zipcode: '238858',
    distance: 120.5,
  });
});

test('"locker_type B": the nearest station, its distance in metres to one decimal', () => {
  const order = sampleParcelOrder({ locker_type: 'B' });
  expect(
    lockerStationFor(order, {
      station: { ...station, kind: 'locker', lat: 1.28, lng: 103.85 },
      distance: 59.44,
    } as Parameters<typeof lockerStationFor>[1]),
  ).toEqual({ ...station, distance: 59.4 });
});

test('no locker_type: no station, even one sent', () => {
  expect(lockerStationFor(sampleParcelOrder({ locker_station: chosen }), undefined)).toBeUndefined();
});
