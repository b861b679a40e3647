/** The locker a registration records; the rules of routing and of locker B are also tested through validation (packages/contracts). */
import { sampleParcelOrder } from '../../test/fixtures.ts';
import type { LockerChoice } from './order.ts';
import { LOCKER_RADIUS_M, lockerStationFor, nearestLocker, routeOrder, serves } from './routing.ts';

const chosen = {
  zipcode: '238858',
  name: 'Orchard Gateway Locker',
  address: '277 Orchard Road',
  addressDetail: 'Level 1 lobby',
  distance: 120.5,
  code: 'SGL0003',
};
const station = {
  code: 'SGL0001',
  name: 'Raffles Place MRT Locker',
  address: '5 Raffles Place',
  addressDetail: 'Exit B, basement 1',
  zipcode: '048618',
};

test('"locker_type A": the station as the client sent it', () => {
  const order = sampleParcelOrder({ locker: { type: 'A', station: chosen } });
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
  const order = sampleParcelOrder({ locker: { type: 'B' } });
  expect(
    lockerStationFor(order, {
      station: { ...station, kind: 'locker', lat: 1.28, lng: 103.85 },
      distance: 59.44,
    } as Parameters<typeof lockerStationFor>[1]),
  ).toEqual({ ...station, distance: 59.4 });
});

test('no locker_type: no station, even one sent', () => {
  expect(
    lockerStationFor(sampleParcelOrder({ locker: { station: chosen } as LockerChoice }), undefined),
  ).toBeUndefined();
});

const catalogue = {
  serviceTypes: new Map<string, { carrier?: string; countries?: readonly string[] }>([
    ['LMD', {}],
    ['PUD', { carrier: 'LMX-PU', countries: ['SG', 'MY'] }],
  ]),
  defaultServiceType: 'LMD',
  routing: { byCountry: { SG: 'LMX' }, defaultCarrier: 'GLX' },
};

test('a service type serves an order when it exists, is the account’s and carries to the destination', () => {
  const account = { serviceTypes: ['LMD', 'PUD'] };
  expect(serves(catalogue, account, 'LMD', 'JP')).toBe(true);
  expect(serves(catalogue, account, 'PUD', 'MY')).toBe(true);
  expect(serves(catalogue, account, 'PUD', 'JP')).toBe(false);
  expect(serves(catalogue, { serviceTypes: ['LMD'] }, 'PUD', 'SG')).toBe(false);
  expect(serves(catalogue, { serviceTypes: ['XYZ'] }, 'XYZ', 'SG')).toBe(false);
});

test('routing: the service type’s own carrier, else the destination’s, else the default; no type sent is the default type', () => {
  expect(routeOrder(catalogue, 'PUD', 'SG')).toEqual({ serviceType: 'PUD', carrier: 'LMX-PU' });
  expect(routeOrder(catalogue, undefined, 'SG')).toEqual({ serviceType: 'LMD', carrier: 'LMX' });
  expect(routeOrder(catalogue, 'LMD', 'AU')).toEqual({ serviceType: 'LMD', carrier: 'GLX' });
  expect(routeOrder(catalogue, 'LMD', 'toString')).toEqual({ serviceType: 'LMD', carrier: 'GLX' });
});

test('locker B: the nearest station within 5 km, for a Singapore postal code only', () => {
  const asked: unknown[] = [];
  const finder = {
    stationsNear: (postalCode: string, radiusM: number, limit: number) => {
      asked.push([postalCode, radiusM, limit]);
      return [{ station, distance: 12 }];
    },
  };
  expect(nearestLocker(finder, 'SG', '048618')).toEqual({ station, distance: 12 });
  expect(asked).toEqual([['048618', LOCKER_RADIUS_M, 1]]);
  expect(nearestLocker(finder, 'MY', '50450')).toBeUndefined();
  expect(nearestLocker(finder, 'SG', undefined)).toBeUndefined();
  expect(asked).toHaveLength(1);
});
