import { readFileSync } from 'node:fs';
import path from 'node:path';
import { haversineMetres } from './geo.ts';
import type { Account, CarrierDef, ReferenceData, Routing, ServiceTypeDef, Station, StationMatch } from './types.ts';

export const DEFAULT_REFERENCE_DIR = path.resolve(import.meta.dirname, '../data');
export const DEMO_ACCOUNTS_FILE = path.join(DEFAULT_REFERENCE_DIR, 'accounts.demo.json');

const readJson = <T>(file: string): T => JSON.parse(readFileSync(file, 'utf8')) as T;

interface ServicesFile {
  defaultServiceType: string;
  serviceTypes: ServiceTypeDef[];
  serviceCodes: Record<string, Record<string, string>>;
  routing: Routing;
}

interface GeocoderFile {
  /** First two digits of a Singapore postal code -> [lat, lng] of the sector's centroid. */
  sectors: Record<string, [number, number]>;
  /** Full postal codes with a known point, finer than their sector. */
  postalCodes: Record<string, [number, number]>;
}

/** Singapore postal codes: six digits, sector = first two. */
function geocodeSingapore(geo: GeocoderFile, postalCode: string): [number, number] | undefined {
  const digits = postalCode.replace(/\D/g, '');
  if (digits.length !== 6) return undefined;
  return geo.postalCodes[digits] ?? geo.sectors[digits.slice(0, 2)];
}

export function loadReferenceData(dir: string = DEFAULT_REFERENCE_DIR): ReferenceData {
  const countries = readJson<{ allowedRecipientCountries: string[] }>(path.join(dir, 'countries.json'));
  const services = readJson<ServicesFile>(path.join(dir, 'services.json'));
  const carriers = readJson<{ carriers: CarrierDef[] }>(path.join(dir, 'carriers.json'));
  const stations = readJson<{ stations: Station[] }>(path.join(dir, 'stations.json')).stations;
  const geocoder = readJson<GeocoderFile>(path.join(dir, 'sg-geocoder.json'));
  const byCode = new Map(stations.map((s) => [s.code, s]));

  return {
    allowedCountries: new Set(countries.allowedRecipientCountries),
    serviceTypes: new Map(services.serviceTypes.map((t) => [t.code, t])),
    defaultServiceType: services.defaultServiceType,
    serviceCodes: new Map(
      Object.entries(services.serviceCodes).map(([c, codes]) => [c, new Map(Object.entries(codes))]),
    ),
    carriers: new Map(carriers.carriers.map((c) => [c.code, c])),
    routing: services.routing,
    stationByCode: (code) => byCode.get(code),
    stationsNear(postalCode, radiusM, limit) {
      const point = geocodeSingapore(geocoder, postalCode);
      if (!point) return [];
      const [lat, lng] = point;
      const matches: StationMatch[] = [];
      for (const station of stations) {
        const distance = haversineMetres(lat, lng, station.lat, station.lng);
        if (distance <= radiusM) matches.push({ station, distance });
      }
      return matches
        .sort((a, b) => a.distance - b.distance || a.station.code.localeCompare(b.station.code))
        .slice(0, limit);
    },
  };
}

export function loadAccounts(file: string = DEMO_ACCOUNTS_FILE): Account[] {
  const { accounts } = readJson<{ accounts: Account[] }>(file);
  for (const a of accounts) {
    if (!a.clientId || !a.apiName || !a.apiKey)
      throw new Error(`accounts file ${file}: every account needs clientId, apiName and apiKey`);
    a.weightUnit ??= 'kg';
    a.serviceTypes ??= [];
    a.canCancel ??= false;
  }
  return accounts;
}
