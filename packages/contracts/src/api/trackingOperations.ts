/**
 * The public tracking page's operations: the search form, the page, and its JSON
 * variant for embedding. No account; rate limited per client address. Built by a function so that
 * this file needs no value of operations.ts while that one is still being evaluated.
 */
import { z } from 'zod';
import { Http, Remarks } from '../messages.ts';
import type { Operation } from './operation.ts';
import { successB } from './schemas.ts';

const PublicActivity = z.strictObject({
  status_date_time: z.string().meta({ description: 'Singapore time, ISO 8601 with offset (+08:00).' }),
  status_code: z.string(),
  status_desc: z.string(),
  location: z.string(),
});

const PublicTrackingB = z
  .strictObject({
    tracking_number: z.string(),
    carrier: z.string().meta({ description: 'The carrier’s name.' }),
    partner_tracking_no: z
      .string()
      .meta({ description: 'The carrier’s own number; empty until it registered the parcel.' }),
    locker_station: z
      .strictObject({
        station_code: z.string(),
        station_name: z.string(),
        station_address: z.string(),
        zipcode: z.string(),
      })
      .optional()
      .meta({ description: 'Present when the parcel goes to a locker station.' }),
    activities: z.array(PublicActivity).meta({ description: 'Most recent first.' }),
  })
  .meta({
    description:
      'What anyone with the number may see: never a name, phone, email or street address, the client’s reference or the declared value.',
  });

const RATE =
  'more than PARCEL_TRACK_RATE_LIMIT_PER_MIN requests a minute from this client address (60 by default); Retry-After says when to try again';
const NOTHING =
  'no parcel has this number, the number is malformed, or the parcel has nothing to show yet: the same answer for each';
const NUMBER = z.object({ tracking_number: z.string().meta({ description: 'The platform’s tracking number.' }) });

export const trackingOperations = (sample: {
  trackingNumber: string;
  unknownTrackingNumber: string;
  time: string;
  partnerTrackingNo: string;
}): Operation[] => [
  {
    id: 'trackingSearch',
    tag: 'Service',
    method: 'get',
    path: '/track',
    summary: 'Public tracking: the search form',
    description:
      'A page with a form that needs no script: it sends `?tracking_number=`, which is answered with 303 to `/track/{tracking_number}` ' +
      '(spaces and dashes dropped, upper case). No account.',
    security: 'none',
    query: z.object({ tracking_number: z.string().optional().meta({ description: 'A number typed into the form.' }) }),
    success: z.string(),
    produces: ['text/html'],
    errors: [{ status: 429, code: 1, message: Http.rateLimited, when: RATE }],
    examples: [{ name: 'form', summary: 'The search form', response: '<!doctype html>…' }],
  },
  {
    id: 'trackingJson',
    tag: 'Service',
    method: 'get',
    path: '/track/:tracking_number.json',
    summary: 'Public tracking, as JSON for embedding',
    description:
      'The facts of the tracking page in interface B’s envelope, with `Access-Control-Allow-Origin: *`. A found parcel is cached ' +
      'for 60 s (`Cache-Control: public, max-age=60`); a miss is not cached.',
    security: 'none',
    params: NUMBER,
    success: successB(PublicTrackingB),
    errors: [
      { status: 404, code: 1, message: Remarks.noRecord, when: NOTHING },
      { status: 429, code: 1, message: Http.rateLimited, when: RATE },
    ],
    examples: [
      {
        name: 'found',
        summary: 'A parcel with its history',
        params: { tracking_number: sample.trackingNumber },
        response: {
          code: 0,
          message: 'success',
          data: {
            tracking_number: sample.trackingNumber,
            carrier: 'LMX Express',
            partner_tracking_no: sample.partnerTrackingNo,
            activities: [
              {
                status_date_time: sample.time,
                status_code: 'LB_GN',
                status_desc: 'Shipping label generated',
                location: '',
              },
            ],
          },
        },
      },
      {
        name: 'unknown',
        summary: 'A number with nothing to show',
        params: { tracking_number: sample.unknownTrackingNumber },
        response: { code: 1, message: Remarks.noRecord, data: [] },
        status: 404,
      },
    ],
  },
  {
    id: 'trackingPage',
    tag: 'Service',
    method: 'get',
    path: '/track/:tracking_number',
    summary: 'Public tracking page',
    description:
      'Server-rendered HTML, no script and no external asset (a strict Content-Security-Policy): the status history most recent first ' +
      'with descriptions, Singapore times and locations, the carrier and its number, the locker station. No account. A miss answers 404 ' +
      'with the same page whatever the reason, not cached; a found parcel is cached for 60 s.',
    security: 'none',
    params: NUMBER,
    success: z.string(),
    produces: ['text/html'],
    errors: [
      { status: 404, code: 1, message: Remarks.noRecord, when: `${NOTHING} (an HTML page)` },
      { status: 429, code: 1, message: Http.rateLimited, when: `${RATE} (an HTML page)` },
    ],
    examples: [
      {
        name: 'found',
        summary: 'The page of a parcel',
        params: { tracking_number: sample.trackingNumber },
        response: '<!doctype html>…',
      },
    ],
  },
];
