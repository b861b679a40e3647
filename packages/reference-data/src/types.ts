/** Reference data: loaded from JSON files at start, changeable without code. */
import type { WeightUnit } from '@parcel-logistics/domain';

export interface Account {
  clientId: string;
  apiName: string;
  apiKey: string;
  weightUnit: WeightUnit;
  serviceTypes: string[];
  canCancel: boolean;
}

export interface ServiceTypeDef {
  code: string;
  name: string;
  /** Pickup types need the sender_* fields. */
  pickup: boolean;
  /** Self-label types: the client prints the carrier's label (A2 create-label refuses them). */
  selfLabel: boolean;
  /** Carrier the type routes to; absent: routed by destination. */
  carrier?: string;
  /** Destinations the type may ship to; absent: any allowed country. */
  countries?: string[];
}

export interface CarrierDef {
  code: string;
  name: string;
  /** Parcels of this carrier may be cancelled through cancel-orders. */
  cancellable: boolean;
  /** Shared secret of the carrier's signed event callbacks. */
  eventSecret?: string;
  /** Carrier event code -> our status code. */
  eventCodes?: Record<string, string>;
}

export interface Station {
  code: string;
  name: string;
  address: string;
  addressDetail: string;
  zipcode: string;
  lat: number;
  lng: number;
  /** Parcel locker or staffed self-collection point (shop counter); absent: not stated by the feed. */
  kind?: 'locker' | 'collection-point';
}

export interface StationMatch {
  station: Station;
  /** Metres from the queried point. */
  distance: number;
}

export interface Routing {
  /** Destination country -> carrier code. */
  byCountry: Record<string, string>;
  defaultCarrier: string;
}

export interface ReferenceData {
  allowedCountries: ReadonlySet<string>;
  serviceTypes: ReadonlyMap<string, ServiceTypeDef>;
  /** Service type used when an order names none. */
  defaultServiceType: string;
  /** Destination country -> service code -> name (US and SG). */
  serviceCodes: ReadonlyMap<string, ReadonlyMap<string, string>>;
  carriers: ReadonlyMap<string, CarrierDef>;
  routing: Routing;
  stationByCode(code: string): Station | undefined;
  /** Stations within `radiusM` of the postal code's location, nearest first, at most `limit`. */
  stationsNear(postalCode: string, radiusM: number, limit: number): StationMatch[];
}
