/**
 * Where a parcel was, as anyone may see it: a carrier's `location` is free text, and carriers write
 * street addresses there ("1 Raffles Place" when they hand the parcel over). Only a place that
 * identifies no one is shown without an account: a country, or a city or facility of the list
 * below. Anything else is not shown at all (an empty location), never trimmed or guessed at.
 */

/** Countries as ISO 3166-1 alpha-2 codes and their English names. */
const COUNTRIES: Readonly<Record<string, string>> = {
  AU: 'Australia',
  BN: 'Brunei',
  CA: 'Canada',
  CN: 'China',
  DE: 'Germany',
  FR: 'France',
  GB: 'United Kingdom',
  HK: 'Hong Kong',
  ID: 'Indonesia',
  IN: 'India',
  JP: 'Japan',
  KH: 'Cambodia',
  KR: 'South Korea',
  LA: 'Laos',
  MM: 'Myanmar',
  MO: 'Macao',
  MY: 'Malaysia',
  NZ: 'New Zealand',
  PH: 'Philippines',
  SG: 'Singapore',
  TH: 'Thailand',
  TW: 'Taiwan',
  US: 'United States',
  VN: 'Vietnam',
};

/** Cities and the carriers' sorting facilities, border checkpoints and airports. */
const PLACES: readonly string[] = [
  'Bangkok',
  'Changi Airfreight Centre',
  'Changi Airport',
  'Changi Hub',
  'Ho Chi Minh City',
  'Jakarta',
  'Johor Bahru',
  'Kuala Lumpur',
  'Manila',
  'Penang',
  'Singapore hub',
  'Singapore sorting centre',
  'Tuas Checkpoint',
  'Woodlands Checkpoint',
];

const key = (text: string) => text.trim().replace(/\s+/g, ' ').toLowerCase();

const PUBLIC: ReadonlyMap<string, string> = new Map([
  ...Object.entries(COUNTRIES).flatMap(([code, name]): [string, string][] => [
    [key(code), code],
    [key(name), name],
  ]),
  ...PLACES.map((place): [string, string] => [key(place), place]),
]);

/** Any ISO 3166-1 alpha-2 code is a country, listed above or not (the platform's own events carry the sender's). */
const COUNTRY_CODE = /^[A-Za-z]{2}$/;

/** The place as the public may see it (spelled as the list spells it), or '' when it is not a public place. */
export const publicPlaceOf = (location: string): string => {
  const trimmed = location.trim();
  return COUNTRY_CODE.test(trimmed) ? trimmed.toUpperCase() : (PUBLIC.get(key(trimmed)) ?? '');
};
