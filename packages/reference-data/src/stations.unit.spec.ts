import { readFileSync } from 'node:fs';
import path from 'node:path';
import { haversineMetres } from './geo.ts';
import { DEFAULT_REFERENCE_DIR, loadReferenceData } from './load.ts';
import type { Station } from './types.ts';

// The data files are read here directly (not through load.ts) so the expectations below do not
// depend on the code under test.
interface GeocoderFile {
  source: string;
  unusedSectors: Record<string, string>;
  sectors: Record<string, [number, number]>;
  postalCodes: Record<string, [number, number]>;
}
const readJson = <T>(name: string): T => JSON.parse(readFileSync(path.join(DEFAULT_REFERENCE_DIR, name), 'utf8')) as T;
const stationsFile = readJson<{ source: string; stations: Station[] }>('stations.json');
const stations = stationsFile.stations;
const geocoder = readJson<GeocoderFile>('sg-geocoder.json');
const ref = loadReferenceData();

// Singapore's bounding box (main island, Sentosa, Tuas, Changi), WGS84.
const SG = { minLat: 1.23, maxLat: 1.47, minLng: 103.6, maxLng: 104.05 };
const inSingapore = ([lat, lng]: readonly [number, number]) =>
  lat >= SG.minLat && lat <= SG.maxLat && lng >= SG.minLng && lng <= SG.maxLng;

/**
 * Independent great-circle distance (atan2 form of the haversine, written separately from
 * geo.ts): mean Earth radius 6371.0088 km (IUGG).
 */
function greatCircleM(a: readonly [number, number], b: readonly [number, number]): number {
  const toRad = Math.PI / 180;
  const lat1 = a[0] * toRad;
  const lat2 = b[0] * toRad;
  const dLat = (b[0] - a[0]) * toRad;
  const dLng = (b[1] - a[1]) * toRad;
  const s =
    Math.sin(dLat / 2) * Math.sin(dLat / 2) + Math.cos(lat1) * Math.cos(lat2) * Math.sin(dLng / 2) * Math.sin(dLng / 2);
  return 6_371_008.8 * 2 * Math.atan2(Math.sqrt(s), Math.sqrt(1 - s));
}

const RADIUS_M = 5000;
const LIMIT = 20;

/** Every station with its independent distance from `point`, nearest first (ties by code). */
function allByDistance(point: readonly [number, number]) {
  return stations
    .map((s) => ({ code: s.code, distance: greatCircleM(point, [s.lat, s.lng]) }))
    .sort((x, y) => x.distance - y.distance || x.code.localeCompare(y.code));
}

describe('stations.json: data integrity', () => {
  test('says where the data comes from', () => {
    expect(stationsFile.source).toMatch(/compiled by hand/i);
    expect(stationsFile.source).toMatch(/approximate/i);
  });

  test('at least 200 stations, unique codes', () => {
    expect(stations.length).toBeGreaterThanOrEqual(200);
    expect(new Set(stations.map((s) => s.code)).size).toBe(stations.length);
  });

  test('the three original stations keep their codes and places', () => {
    expect(stations.slice(0, 3)).toEqual([
      expect.objectContaining({
        code: 'SGL0001',
        name: 'Raffles Place MRT Locker',
        zipcode: '048618',
        lat: 1.28393,
        lng: 103.85153,
      }),
      expect.objectContaining({
        code: 'SGL0002',
        name: 'Tanjong Pagar Centre Locker',
        zipcode: '078884',
        lat: 1.27653,
        lng: 103.84566,
      }),
      expect.objectContaining({
        code: 'SGL0003',
        name: 'Orchard Gateway Locker',
        zipcode: '238858',
        lat: 1.30051,
        lng: 103.83953,
      }),
    ]);
  });

  /** Codes of the stations for which `bad` holds (empty when every station passes). */
  const offenders = (bad: (s: Station) => boolean) => stations.filter(bad).map((s) => s.code);

  test('fields within the locker_station limits', () => {
    expect(offenders((s) => !/^[A-Z0-9]{1,10}$/.test(s.code))).toEqual([]); // station_code: max 10
    expect(offenders((s) => s.name.length === 0 || s.name.length > 64)).toEqual([]); // station_name: max 64
    expect(offenders((s) => s.address.length === 0 || s.address.length > 255)).toEqual([]); // station_address: max 255
    expect(offenders((s) => s.addressDetail.length > 255)).toEqual([]); // address_detail: max 255
    expect(offenders((s) => !/^\d{6}$/.test(s.zipcode))).toEqual([]); // a Singapore postal code (zipcode: max 16)
    expect(offenders((s) => s.kind !== 'locker' && s.kind !== 'collection-point')).toEqual([]);
  });

  test("coordinates inside Singapore, within 6 km of the centroid of the zipcode's postal sector", () => {
    expect(offenders((s) => !inSingapore([s.lat, s.lng]))).toEqual([]);
    expect(
      offenders((s) => {
        const sector = geocoder.sectors[s.zipcode.slice(0, 2)];
        return !sector || greatCircleM(sector, [s.lat, s.lng]) >= 6000;
      }),
    ).toEqual([]);
  });

  test('both kinds occur', () => {
    expect(stations.some((s) => s.kind === 'locker')).toBe(true);
    expect(stations.some((s) => s.kind === 'collection-point')).toBe(true);
  });
});

describe('sg-geocoder.json: data integrity', () => {
  const allSectors = Array.from({ length: 82 }, (_, i) => String(i + 1).padStart(2, '0'));

  test('says where the data comes from', () => {
    expect(geocoder.source).toMatch(/compiled by hand/i);
    expect(geocoder.source).toMatch(/approximate/i);
  });

  test('every sector 01-82 has a centroid, except the documented gaps (74)', () => {
    expect(Object.keys(geocoder.unusedSectors)).toEqual(['74']);
    for (const sector of allSectors) {
      if (sector in geocoder.unusedSectors) expect(geocoder.sectors[sector]).toBeUndefined();
      else expect(geocoder.sectors[sector]).toBeDefined();
    }
    expect(Object.keys(geocoder.sectors).sort()).toEqual(allSectors.filter((s) => !(s in geocoder.unusedSectors)));
  });

  test('every point is inside Singapore', () => {
    for (const point of [...Object.values(geocoder.sectors), ...Object.values(geocoder.postalCodes)])
      expect(inSingapore(point)).toBe(true);
  });

  test('postal codes are six digits of a known sector; each station zipcode points at its station', () => {
    for (const code of Object.keys(geocoder.postalCodes)) {
      expect(code).toMatch(/^\d{6}$/);
      expect(geocoder.sectors[code.slice(0, 2)]).toBeDefined();
    }
    for (const s of stations) expect(geocoder.postalCodes[s.zipcode]).toEqual([s.lat, s.lng]);
  });
});

describe('geo.ts haversineMetres', () => {
  test('one degree of latitude is about 111.2 km', () => {
    expect(haversineMetres(1, 103.8, 2, 103.8)).toBeCloseTo(111_195, 0);
    expect(haversineMetres(0, 0, 1, 0) / 1000).toBeCloseTo(111.2, 1);
  });

  test('zero for one point, symmetric', () => {
    expect(haversineMetres(1.3, 103.8, 1.3, 103.8)).toBe(0);
    expect(haversineMetres(1.28393, 103.85153, 1.36, 103.99)).toBeCloseTo(
      haversineMetres(1.36, 103.99, 1.28393, 103.85153),
      6,
    );
  });

  test('Raffles Place to Tanjong Pagar: about 1050 m (hand-computed)', () => {
    // dLat 0.00740 deg * 111195 m = 822.8 m; dLng 0.00587 deg * 111195 m * cos(1.28 deg) = 652.5 m;
    // sqrt(822.8^2 + 652.5^2) = 1050.2 m (flat approximation, good to centimetres at this range).
    expect(haversineMetres(1.28393, 103.85153, 1.27653, 103.84566)).toBeCloseTo(1050.2, 0);
  });

  test('agrees with the independent formula of this test', () => {
    const pairs: [number, number, number, number][] = [
      [1.28393, 103.85153, 1.3603, 103.9895],
      [1.3404, 103.6368, 1.4485, 103.8195],
      [1.248, 103.841, 1.4065, 103.902],
    ];
    for (const [a, b, c, d] of pairs) expect(haversineMetres(a, b, c, d)).toBeCloseTo(greatCircleM([a, b], [c, d]), 3);
  });
});

describe('stationsNear (get-stations: within 5 km, at most 20, nearest first)', () => {
  // Three query points: a dense CBD station postcode, a suburban station postcode, and a postcode
  // that is not in postalCodes and so falls back to its sector centroid (73: Woodlands).
  const cases = [
    { postcode: '048618', point: [1.28393, 103.85153] as const, nearest: 'SGL0001' },
    {
      postcode: '529510',
      point: [1.3526, 103.9447] as const,
      nearest: stations.find((s) => s.zipcode === '529510')!.code,
    },
    { postcode: '730999', point: geocoder.sectors['73']!, nearest: undefined },
  ];

  test.each(cases)('$postcode: geocodes to the expected point', ({ postcode, point }) => {
    expect(geocoder.postalCodes[postcode] ?? geocoder.sectors[postcode.slice(0, 2)]).toEqual([...point]);
  });

  test.each(cases)(
    '$postcode: same stations, order and distances as the independent computation',
    ({ postcode, point }) => {
      const expected = allByDistance(point)
        .filter((m) => m.distance <= RADIUS_M)
        .slice(0, LIMIT);
      const got = ref.stationsNear(postcode, RADIUS_M, LIMIT);
      expect(got.map((m) => m.station.code)).toEqual(expected.map((m) => m.code));
      got.forEach((m, i) => expect(m.distance).toBeCloseTo(expected[i]!.distance, 3));
      expect(got.length).toBeGreaterThan(0);
    },
  );

  test.each(cases)('$postcode: nearest first, all within 5 km, at most 20', ({ postcode }) => {
    const got = ref.stationsNear(postcode, RADIUS_M, LIMIT);
    expect(got.length).toBeLessThanOrEqual(LIMIT);
    for (let i = 1; i < got.length; i++) expect(got[i]!.distance).toBeGreaterThanOrEqual(got[i - 1]!.distance);
    for (const m of got) expect(m.distance).toBeLessThanOrEqual(RADIUS_M);
  });

  test.each(cases.filter((c) => c.nearest))(
    '$postcode: its own station comes first at 0 m',
    ({ postcode, nearest }) => {
      const [first] = ref.stationsNear(postcode, RADIUS_M, LIMIT);
      expect(first!.station.code).toBe(nearest);
      expect(first!.distance).toBe(0);
    },
  );

  test('048618 (CBD): more than 20 stations lie within 5 km, so the limit of 20 cuts the list', () => {
    const within = allByDistance(cases[0]!.point).filter((m) => m.distance <= RADIUS_M);
    expect(within.length).toBeGreaterThan(LIMIT);
    const got = ref.stationsNear('048618', RADIUS_M, LIMIT);
    expect(got).toHaveLength(LIMIT);
    // The 21st nearest is left out although it is inside the radius.
    expect(got.map((m) => m.station.code)).not.toContain(within[LIMIT]!.code);
    // Tanjong Pagar Centre is 1050 m from Raffles Place (see the hand computation above).
    expect(got.find((m) => m.station.code === 'SGL0002')!.distance).toBeCloseTo(1050.2, 0);
  });

  test.each(cases)(
    '$postcode: the 5 km radius cuts the list (stations just beyond are left out)',
    ({ postcode, point }) => {
      const all = allByDistance(point);
      const beyond = all.filter((m) => m.distance > RADIUS_M);
      expect(beyond.length).toBeGreaterThan(0);
      const codes = new Set(ref.stationsNear(postcode, RADIUS_M, stations.length).map((m) => m.station.code));
      expect(codes.size).toBe(all.length - beyond.length);
      for (const m of beyond) expect(codes.has(m.code)).toBe(false);
    },
  );

  test('a smaller radius and limit cut the same ordered list', () => {
    const full = ref.stationsNear('529510', RADIUS_M, LIMIT);
    expect(ref.stationsNear('529510', RADIUS_M, 3)).toEqual(full.slice(0, 3));
    expect(ref.stationsNear('529510', 1000, LIMIT)).toEqual(full.filter((m) => m.distance <= 1000));
  });

  test('separators in the postcode are ignored (digits only)', () => {
    expect(ref.stationsNear('04-8618', RADIUS_M, LIMIT)).toEqual(ref.stationsNear('048618', RADIUS_M, LIMIT));
  });

  /** Postcodes that name no Singapore sector, by kind: each one's answer is an empty list. */
  const nowhere: Record<string, [label: string, postcode: string][]> = {
    unknown: [
      ['unknown sector 00', '000000'],
      ['unused sector 74', '740123'],
      ['unknown sector 99', '990001'],
    ],
    'non-Singapore': [
      ['US ZIP', '94105'],
      ['Malaysia', '50450'],
      ['Australia', '2000'],
      ['Japan', '100-0001'],
      ['United Kingdom', 'SW1A 1AA'],
    ],
    malformed: [
      ['empty', ''],
      ['five digits', '04861'],
      ['seven digits', '0486180'],
      ['letters', 'ABCDEF'],
      ['blank', '      '],
    ],
  };
  test.each(
    Object.entries(nowhere).flatMap(([kind, cases]) => cases.map(([label, postcode]) => [kind, label, postcode])),
  )('%s postcode (%s): empty list', (_kind, _label, postcode) => {
    expect(ref.stationsNear(postcode, RADIUS_M, LIMIT)).toEqual([]);
  });
});
