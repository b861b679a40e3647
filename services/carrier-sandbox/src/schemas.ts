import { z } from 'zod';

const text = (max: number) => z.string().trim().min(1).max(max);

export const shipmentBody = z.object({
  tracking_number: text(64),
  carrier: z.enum(['LMX', 'LMX-PU']),
  recipient_country: z.string().regex(/^[A-Z]{2}$/),
  postal_code: text(20),
  recipient_name: text(255),
  instruction: z.string().max(1024).default(''),
});

/** Up to 100 shipments, each checked on its own (`POST /v1/shipments/batch`). */
export const shipmentBatchBody = z.object({
  shipments: z.array(z.unknown()).min(1).max(100),
});

export const cancellationBody = z.object({
  partner_tracking_nos: z.array(text(64)).min(1).max(100),
});

export const eventBody = z.object({
  partner_tracking_no: text(64),
  event_code: text(64),
  // Passed through as sent, so a test can make the carrier send a malformed time.
  event_time: z.string().optional(),
  location: z.string().default(''),
  remarks: z.string().default(''),
  receive_by: z.string().default(''),
  pod: z.array(z.string()).default([]),
});

export const rawCallbackBody = z.object({
  carrier: z
    .string()
    .regex(/^[A-Z0-9-]{1,16}$/)
    .default('LMX'),
  body: z.string(),
  /** Absent: the correct signature; null: no header; a string: sent as the header verbatim. */
  signature: z.string().nullable().optional(),
});

/** `{ message }` naming the first offending field, in the project's `<field> require|invalid` style. */
export function parseBody<S extends z.ZodType>(
  schema: S,
  body: unknown,
): { ok: true; value: z.output<S> } | { ok: false; message: string } {
  if (typeof body !== 'object' || body === null || Array.isArray(body))
    return { ok: false, message: 'Invalid JSON body' };
  const r = schema.safeParse(body);
  if (r.success) return { ok: true, value: r.data };
  const issue = r.error.issues[0]!;
  const field = issue.path.map(String).join('.');
  const top = (body as Record<string, unknown>)[String(issue.path[0])];
  return { ok: false, message: `${field} ${top === undefined || top === null ? 'require' : 'invalid'}` };
}
