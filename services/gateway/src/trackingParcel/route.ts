/**
 * The public tracking page: `GET /track` (the search form), `GET /track/{number}`
 * (the page) and `GET /track/{number}.json` (the same facts for embedding). No account: it reads
 * `getPublicTracking`, which holds only what the page may show. An unknown number, a malformed
 * one and a parcel with nothing to show get the same answer: 404 and the same page or body.
 */
import type { NextFunction, Request, Response, Router } from 'express';
import { B, CODE_SUCCESS, Http, Remarks, type PublicTracking } from '@parcel-logistics/contracts';
import { isValidTrackingNumber } from '@parcel-logistics/domain';
import type { ProjectionStore } from '@parcel-logistics/projections';
import type { GatewayConfig, GatewayContext, Mounting } from '../context.ts';
import { addressRateLimit } from '../http/addressRateLimit.ts';
import { failB, sendB } from '../http/interfaces.ts';
import { mount } from '../http/mount.ts';
import { CSP, limitedPage, nothingPage, searchPage, trackingPage } from './page.ts';

/** How much of a typed number is echoed back on the page. */
const ECHO_MAX = 64;

/** A number as people type it: spaces and dashes dropped, upper case. */
const normalised = (typed: string): string =>
  typed
    .replace(/[\s-]+/g, '')
    .toUpperCase()
    .slice(0, ECHO_MAX);

const FOUND_CACHE = 'public, max-age=60';

function html(res: Response, status: number, body: string, cache: string): void {
  res.setHeader('Content-Security-Policy', CSP);
  res.setHeader('X-Content-Type-Options', 'nosniff');
  res.setHeader('Referrer-Policy', 'no-referrer');
  res.setHeader('Cache-Control', cache);
  res.status(status).type('text/html; charset=utf-8').send(body);
}

function json(res: Response, status: number, cache: string, send: () => void): void {
  res.setHeader('Access-Control-Allow-Origin', '*');
  res.setHeader('X-Content-Type-Options', 'nosniff');
  res.setHeader('Cache-Control', cache);
  res.status(status);
  send();
}

/** The JSON variant's data: interface B's field names. */
const trackingB = (t: PublicTracking) => ({
  tracking_number: t.trackingNumber,
  carrier: t.carrier,
  partner_tracking_no: t.partnerTrackingNo,
  ...(t.lockerStation
    ? {
        locker_station: {
          station_code: t.lockerStation.code,
          station_name: t.lockerStation.name,
          station_address: t.lockerStation.address,
          zipcode: t.lockerStation.zipcode,
        },
      }
    : {}),
  activities: t.activities.map((a) => ({
    status_date_time: a.dateTime,
    status_code: a.statusCode,
    status_desc: a.statusDesc,
    location: a.location,
  })),
});

const wantsJson = (req: Request) => req.path.endsWith('.json');

/** What the public tracking page reaches: the public tracking view, its rate limit, the clock. */
export interface TrackingParcelDeps extends Mounting, Pick<GatewayContext, 'clock'> {
  projections: Pick<ProjectionStore, 'parcels'>;
  config: Pick<GatewayConfig, 'trackRateLimitPerMinute'>;
}

export function trackingParcel(router: Router, ctx: TrackingParcelDeps): void {
  const limit = addressRateLimit(ctx.config.trackRateLimitPerMinute, ctx.clock, (req, res) => {
    if (wantsJson(req)) json(res, 429, 'no-store', () => failB(res, Http.rateLimited, 429));
    else html(res, 429, limitedPage(), 'no-store');
  });
  const read = async (typed: string): Promise<PublicTracking | null> =>
    isValidTrackingNumber(typed) ? ctx.projections.parcels.getPublicTracking(typed) : null;

  mount(router, ctx, 'trackingSearch', limit, (req, res) => {
    const typed = typeof req.query.tracking_number === 'string' ? normalised(req.query.tracking_number) : '';
    if (typed === '') return html(res, 200, searchPage(), 'public, max-age=3600');
    res.setHeader('Cache-Control', 'no-store');
    res.redirect(303, `/track/${encodeURIComponent(typed)}`);
  });
  mount(router, ctx, 'trackingJson', limit, async (req, res) => {
    const found = await read(String(req.params.tracking_number));
    if (!found) return json(res, 404, 'no-store', () => failB(res, Remarks.noRecord, 404));
    json(res, 200, FOUND_CACHE, () => sendB(res, CODE_SUCCESS, B.success, trackingB(found)));
  });
  mount(router, ctx, 'trackingPage', limit, async (req, res) => {
    const typed = String(req.params.tracking_number);
    const found = await read(typed);
    if (!found) return html(res, 404, nothingPage(typed.slice(0, ECHO_MAX)), 'no-store');
    html(res, 200, trackingPage(found), FOUND_CACHE);
  });
  // A path express cannot decode (`/track/%E0%A4%A`) is a number nobody has: the same answer.
  router.use('/track', (error: unknown, req: Request, res: Response, next: NextFunction) => {
    if ((error as { status?: number }).status !== 400) return next(error);
    if (wantsJson(req)) return json(res, 404, 'no-store', () => failB(res, Remarks.noRecord, 404));
    html(res, 404, nothingPage(''), 'no-store');
  });
}
