/** B5 GET get-stations: stations within 5 km of the postal code, nearest first, at most 20. */
import type { Router } from 'express';
import { B, CODE_SUCCESS, StationsQuery } from '@parcel-logistics/contracts';
import type { Station } from '@parcel-logistics/contracts/api';
import type { GatewayContext, Mounting } from '../context.ts';
import { sendB } from '../http/interfaces.ts';
import { mount } from '../http/mount.ts';

const STATION_RADIUS_M = 5000;
const STATION_LIMIT = 20;

/** What get-stations reaches: the reference data. */
export type GettingStationsDeps = Mounting & Pick<GatewayContext, 'ref'>;

export function gettingStations(router: Router, ctx: GettingStationsDeps): void {
  mount(router, ctx, 'getStations', (req, res) => {
    const query = StationsQuery.safeParse(req.query);
    const postcode = query.success ? query.data.postcode : undefined;
    // Omitted (or not a single value): the specified empty list, not an error.
    if (postcode === undefined) return sendB(res, CODE_SUCCESS, B.success, []);
    const stations = ctx.ref
      .stationsNear(postcode, STATION_RADIUS_M, STATION_LIMIT)
      .map(({ station, distance }): Station => ({
        Zipcode: station.zipcode,
        Station_Name: station.name,
        Station_Address: station.address,
        Address_Detail: station.addressDetail,
        Distance: Math.round(distance * 10) / 10,
        Station_Code: station.code,
      }));
    sendB(res, CODE_SUCCESS, B.success, stations);
  });
}
