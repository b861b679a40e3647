/**
 * Where a parcel goes (decisions.md, Reference data): the service types an account may use and
 * where each carries, the carrier of a parcel, and the locker it is delivered to. Create-order
 * validation asks these in its table's order, so that the first failure is still the message; the
 * gateway builds the registration with them. They read the reference data through the little they
 * need of it, so any reference data of that shape will do.
 */
import type { AssignedStation, ParcelOrder } from './order.ts';

/** locker_type B takes the nearest station within 5 km. */
export const LOCKER_RADIUS_M = 5000;

/** What the routing rules read of the reference data. */
export interface ServiceCatalogue {
  serviceTypes: ReadonlyMap<string, { carrier?: string; countries?: readonly string[] }>;
  /** Service type used when an order names none. */
  defaultServiceType: string;
  routing: {
    /** Destination country -> carrier code. */
    byCountry: Record<string, string>;
    defaultCarrier: string;
  };
}

/** A station found near a postal code, and its distance in metres. */
export interface NearbyStation {
  station: Omit<AssignedStation, 'distance'>;
  distance: number;
}

/** Stations within `radiusM` of the postal code's location, nearest first, at most `limit`. */
export interface StationFinder<M extends NearbyStation> {
  stationsNear(postalCode: string, radiusM: number, limit: number): M[];
}

/** The service type exists, is assigned to the account and carries to the destination. */
export function serves(
  ref: ServiceCatalogue,
  account: { serviceTypes: readonly string[] },
  serviceType: string,
  country: string,
): boolean {
  const def = ref.serviceTypes.get(serviceType);
  if (!def || !account.serviceTypes.includes(serviceType)) return false;
  return !def.countries || def.countries.includes(country);
}

/** locker_type B: the station the order is assigned, if any may be. */
export function nearestLocker<M extends NearbyStation>(
  ref: StationFinder<M>,
  country: string,
  postalCode: string | undefined,
): M | undefined {
  // Stations and the geocoder cover Singapore only: B elsewhere could only match by accident.
  if (country !== 'SG' || postalCode === undefined) return undefined;
  return ref.stationsNear(postalCode, LOCKER_RADIUS_M, 1)[0];
}

/** The service type (the default when none is sent) and the carrier it goes with. */
export function routeOrder(
  ref: ServiceCatalogue,
  sent: string | undefined,
  country: string,
): { serviceType: string; carrier: string } {
  const serviceType = sent ?? ref.defaultServiceType;
  const { byCountry, defaultCarrier } = ref.routing;
  const carrier =
    ref.serviceTypes.get(serviceType)?.carrier ??
    (Object.hasOwn(byCountry, country) ? byCountry[country] : undefined) ??
    defaultCarrier;
  return { serviceType, carrier };
}

/** locker_type B: the station assigned; locker_type A: the station as the client chose it. */
export function lockerStationFor(order: ParcelOrder, assigned: NearbyStation | undefined): AssignedStation | undefined {
  if (assigned) {
    const { code, name, address, addressDetail, zipcode } = assigned.station;
    return { code, name, address, addressDetail, zipcode, distance: Math.round(assigned.distance * 10) / 10 };
  }
  const chosen = order.locker?.type === 'A' ? order.locker.station : undefined;
  if (!chosen) return undefined;
  const { code, name, address, addressDetail, zipcode, distance } = chosen;
  return { code, name, address, addressDetail, zipcode, distance };
}
