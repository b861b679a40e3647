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
    .refine((s) => s.length <= max, { error: A.maxSize(field, max) });

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

/** B6 POST /openapi/order/cancel-orders. */
export const CancelOrdersRequest = z.object({
  tracking_nums: z
    .array(z.string({ error: B.invalid('tracking_nums') }), {
      error: (issue) => (absent(issue.input) ? B.trackingNumsRequired : B.invalid('tracking_nums')),
    })
    .min(1, { error: B.trackingNumsRequired })
    .max(100, { error: B.batchCancelMaximum }),
});

/** B2 POST /openapi/order/create-orders (when enabled). */
export const CreateOrdersRequest = z.object({
  orders: z
    .array(z.unknown(), { error: (issue) => (absent(issue.input) ? B.require('orders') : B.invalid('orders')) })
    .min(1, { error: B.require('orders') }),
});

/** A query parameter of interface B: exactly one non-blank string. */
export const queryParam = (field: string, max = 64) =>
  z
    .string({ error: (issue) => (absent(issue.input) ? B.require(field) : B.invalid(field)) })
    .refine((s) => !isBlank(s), { error: B.require(field), abort: true })
    .refine((s) => s.length <= max, { error: B.invalid(field) });
