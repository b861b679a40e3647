/**
 * Where a parcel goes (decisions.md, Reference data): the service types an account may use and
 * where each carries, the carrier of a parcel, and the locker it is delivered to. Validation asks
 * these in its table's order (OrderRules); the gateway builds the registration with them.
 */
import type { AssignedStation, OrderRules, ParcelOrder } from '@parcel-logistics/contracts';

/** locker_type B takes the nearest station within 5 km. */
export const LOCKER_RADIUS_M = 5000;

type StationMatch = ReturnType<OrderRules['nearestLocker']>;

export const parcelRules: OrderRules = {
  serves(ref, account, serviceType, country) {
    const def = ref.serviceTypes.get(serviceType);
    if (!def || !account.serviceTypes.includes(serviceType)) return false;
    return !def.countries || def.countries.includes(country);
  },
  nearestLocker(ref, country, postalCode) {
    // Stations and the geocoder cover Singapore only: B elsewhere could only match by accident.
    if (country !== 'SG' || postalCode === undefined) return undefined;
    return ref.stationsNear(postalCode, LOCKER_RADIUS_M, 1)[0];
  },
  route(ref, sent, country) {
    const serviceType = sent ?? ref.defaultServiceType;
    const { byCountry, defaultCarrier } = ref.routing;
    const carrier =
      ref.serviceTypes.get(serviceType)?.carrier ??
      (Object.hasOwn(byCountry, country) ? byCountry[country] : undefined) ??
      defaultCarrier;
    return { serviceType, carrier };
  },
};

/** locker_type B: the station assigned; locker_type A: the station as the client chose it. */
export function lockerStationFor(order: ParcelOrder, assigned: StationMatch): AssignedStation | undefined {
  if (assigned) {
    const { code, name, address, addressDetail, zipcode } = assigned.station;
    return { code, name, address, addressDetail, zipcode, distance: Math.round(assigned.distance * 10) / 10 };
  }
  const chosen = order.locker?.type === 'A' ? order.locker.station : undefined;
  if (!chosen) return undefined;
  const { code, name, address, addressDetail, zipcode, distance } = chosen;
  return { code, name, address, addressDetail, zipcode, distance };
}
