/**
 * zod schemas of the request bodies other than the Order (which has its own ordered validator).
 * Fields are declared in the order they are checked; the first issue is the message.
 */
import { z } from 'zod';
import { A, B } from './messages.ts';

export type Checked<T> = { ok: true; value: T } | { ok: false; message: string };

export function check<S extends z.ZodType>(schema: S, input: unknown): Checked<z.output<S>> {
  const result = schema.safeParse(input);
  return result.success ? { ok: true, value: result.data } : { ok: false, message: result.error.issues[0]!.message };
}

const isBlank = (s: string) => s.trim().length === 0;
const absent = (input: unknown) => input === undefined || input === null;

/** Required string field of interface A: missing or blank -> `<f> require`, too long -> `max size of <f> must be <n>`. */
const requiredA = (field: string, max: number) =>
  z
    .string({ error: (issue) => (absent(issue.input) ? A.require(field) : A.invalid(field)) })
    .refine((s) => !isBlank(s), { error: A.require(field), abort: true })
    .max(max, { error: A.maxSize(field, max) });

/** POST /api/auth/token (decisions.md). */
export const TokenRequest = z.object({
  ApiName: requiredA('ApiName', 64),
  ApiKey: requiredA('ApiKey', 256),
});

/** A1 POST /api/status/lookup. */
export const StatusLookupRequest = z.object({
  TrackingNumber: z
    .array(z.string({ error: A.trackingNumberInvalid }), {
      error: (issue) => (absent(issue.input) ? A.trackingNumberRequire : A.trackingNumberInvalid),
    })
    .min(1, { error: A.trackingNumberRequire }),
});

/** POST /api/tracking-number (decisions.md): Barcode is the client's own reference. */
export const TrackingNumberRequest = z.object({ Barcode: requiredA('Barcode', 50) });

/** A2 POST /api/create-label. An unknown Direction is the generic server error, decided by the caller. */
export const CreateLabelRequest = z.object({
  Barcode: requiredA('Barcode', 50),
  LabelType: requiredA('LabelType', 10),
  Origin: requiredA('Origin', 2),
  Destination: requiredA('Destination', 2),
  Direction: z.unknown().optional(),
});

/** B4 POST /openapi/order/query-multi-status: omitted or not an array of strings -> `something error`. */
export const QueryMultiStatusRequest = z.object({
  tracking_nums: z.array(z.string({ error: B.somethingError }), { error: B.somethingError }),
});

/** 1 to 100 tracking numbers, `tooMany` beyond. */
const trackingNums = (tooMany: string) =>
  z.object({
    tracking_nums: z
      .array(z.string({ error: B.invalid('tracking_nums') }), {
        error: (issue) => (absent(issue.input) ? B.trackingNumsRequired : B.invalid('tracking_nums')),
      })
      .min(1, { error: B.trackingNumsRequired })
      .max(100, { error: tooMany }),
  });

/** B6 POST /openapi/order/cancel-orders. */
export const CancelOrdersRequest = trackingNums(B.batchCancelMaximum);

/**
 * POST /v1/openapi/order-shipping-label/get-shipping-labels: 1 to 100 numbers as cancel-orders takes
 * them, `format` pdf (default) or zpl, `layout` label (default) or a4-4up; A4 sheets are PDF only.
 */
export const GetShippingLabelsRequest = trackingNums(B.batchLabelMaximum)
  .extend({
    format: z
      .enum(['pdf', 'zpl'], { error: B.invalid('format') })
      .default('pdf')
      .meta({ description: '`pdf` (Base64) or `zpl`; `pdf` when omitted.' }),
    layout: z
      .enum(['label', 'a4-4up'], { error: B.invalid('layout') })
      .default('label')
      .meta({
        description:
          '`label`: one label a 4 x 6 in page (ZPL: one `^XA … ^XZ` a label); `a4-4up`: four labels an A4 page, PDF only. `label` when omitted.',
      }),
  })
  .refine((body) => !(body.format === 'zpl' && body.layout === 'a4-4up'), { error: B.layoutNeedsPdf });

/** POST /openapi/order/erase-personal-data: 1 to 100 numbers, as cancel-orders takes them. */
export const ErasePersonalDataRequest = trackingNums(B.batchEraseMaximum);

/** B2 POST /openapi/order/create-orders (when enabled). */
export const CreateOrdersRequest = z.object({
  orders: z
    .array(z.unknown(), { error: (issue) => (absent(issue.input) ? B.require('orders') : B.invalid('orders')) })
    .min(1, { error: B.require('orders') }),
});

/** A query parameter of interface B: exactly one non-blank string (a repeated parameter arrives as an array). */
export const queryParam = (field: string, max = 64) =>
  z
    .string({ error: (issue) => (absent(issue.input) ? B.require(field) : B.invalid(field)) })
    .refine((s) => !isBlank(s), { error: B.require(field), abort: true })
    .max(max, { error: B.invalid(field) });

/** B3 query-status and B7-B9 labels. */
export const TrackingNumQuery = z.object({
  tracking_num: queryParam('tracking_num').meta({ description: 'The platform tracking number.' }),
});

/** B10 get-barcode. */
export const CustomTrackingNumQuery = z.object({
  custom_tracking_num: queryParam('custom_tracking_num').meta({
    description: 'Your own reference, exactly as sent to create-order.',
  }),
});

/** B5 get-stations: an omitted or unusable postcode is an empty list, never an error. */
export const StationsQuery = z.object({
  postcode: z
    .string()
    .max(32)
    .optional()
    .meta({ description: 'A Singapore postal code; omitted, the list is empty.', examples: ['238858'] }),
});

// Carriers send null for "nothing"; it reads as the empty string.
const optionalText = (max: number) =>
  z
    .string()
    .max(max)
    .nullish()
    .transform((v) => v ?? '');

/** POST /carrier-events/{carrierCode} (decisions.md): a carrier's tracking event; the carriers package parses it. */
export const CarrierEventBody = z.object({
  partner_tracking_no: z
    .string()
    .trim()
    .min(1)
    .max(64)
    .meta({ description: 'The carrier’s own number of the parcel.' }),
  event_code: z
    .string()
    .trim()
    .min(1)
    .max(64)
    .meta({ description: 'The carrier’s code; mapped to a status code, an unknown one is kept as sent.' }),
  event_time: z
    .string()
    .max(64)
    .meta({
      description: 'ISO 8601 with `Z` or an offset (a local time without one is refused).',
      examples: ['2026-11-23T10:00:00+08:00'],
    }),
  location: optionalText(255),
  remarks: optionalText(1024),
  receive_by: optionalText(255).meta({ description: 'Who signed for a delivery.' }),
  pod: z
    .array(z.string().max(500))
    .max(20)
    .nullish()
    .transform((v) => v ?? [])
    .meta({ description: 'Proof-of-delivery references.' }),
});
