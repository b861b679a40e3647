/**
 * What an operation of the HTTP surface is: its security, tag, errors and examples. Apart from the
 * list of operations (operations.ts), so that the files contributing operations to that list
 * (tracking, webhook endpoints, webhook log) take the type without importing the list.
 */
import type { z } from 'zod';
import type { ReferenceData } from '@parcel-logistics/reference-data';
import type { ProblemName } from '../admin.ts';
import { B } from '../messages.ts';
import { successB } from './schemas.ts';

/** `credentials`: the API name and key in the body (token issuance); `carrier`: a carrier's HMAC signature. */
export type Security = 'bearer' | 'signed' | 'credentials' | 'carrier' | 'none';

/** Security that names an account: its answers carry the rate-limit headers, its POSTs take an Idempotency-Key. */
export const forAccount = (security: Security): boolean =>
  security === 'bearer' || security === 'signed' || security === 'credentials';
export type Tag = 'Interface A' | 'Interface B' | 'Carrier callbacks' | 'Service';

/** An answer an operation can give besides success: HTTP status, envelope code, message, and when. */
export interface ErrorDoc {
  status: number;
  code: number;
  message: string;
  when: string;
}

/** A business failure of interface B: HTTP 200, code 1, the message, and when. */
export const business = (message: string, when: string): ErrorDoc => ({ status: 200, code: 1, message, when });
/** Interface B's answers as examples give them: success with its data, and a failure's envelope. */
export const okB = (data: unknown) => ({ code: 0, message: B.success, data });
export const failB = (message: string) => ({ code: 1, message, data: [] });

/** An operation of interface B: signed, its answer's `data` in the B envelope. */
export const signedB = ({
  data,
  ...op
}: Omit<Operation, 'tag' | 'security' | 'success'> & { data: z.ZodType }): Operation => ({
  ...op,
  tag: 'Interface B',
  security: 'signed',
  success: successB(data),
});

/** A required string of interface B: missing or blank answers `<field> require`, and `invalid` says when `<field> invalid`. */
export const requiredB = (field: string, invalid: string): ErrorDoc[] => [
  business(B.require(field), `${field} is missing or blank`),
  business(B.invalid(field), `${field} ${invalid}`),
];

/** The tracking_nums of a change to 1 to 100 parcels: missing, not strings, or more than 100 (`maximum`). */
export const trackingNumsErrors = (maximum: string): ErrorDoc[] => [
  business(B.trackingNumsRequired, 'tracking_nums is missing or an empty array'),
  business(B.invalid('tracking_nums'), 'tracking_nums is not an array of strings'),
  business(maximum, 'more than 100 numbers'),
];

/** What an example sends: its name and summary, and the query, path parameters and body of its request. */
export interface ExampleRequest {
  name: string;
  summary: string;
  query?: Record<string, string>;
  params?: Record<string, string>;
  body?: unknown;
}

export interface Example extends ExampleRequest {
  /** The answer the example gets; `status` defaults to 200. */
  response: unknown;
  status?: number;
}

export interface Operation {
  id: string;
  /** The specification's label (A1, B3, …), where it has one. */
  label?: string;
  tag: Tag;
  method: 'get' | 'post';
  /** Express syntax (`:param`); the document writes `{param}`. */
  path: string;
  summary: string;
  description: string;
  security: Security;
  query?: z.ZodObject;
  params?: z.ZodObject;
  body?: z.ZodType;
  /** The request body's media type when it is not JSON (import-orders' CSV file). */
  consumes?: 'text/csv';
  /** The success answer's schema (the whole body: envelope included, or the bare object of health and docs). */
  success: z.ZodType;
  /** The failure envelope when it is not the interface's plain one (a data object instead of `[]`). */
  failure?: z.ZodType;
  /** Media types of the success answer; default JSON. */
  produces?: readonly string[];
  errors: ErrorDoc[];
  /** Per-number failures of a successful answer (its `errors` list), each with its remark. */
  remarks?: { remark: string; when: string }[];
  /** The first example is the success one. */
  examples: Example[];
  /** Its success answer holds a secret (a bearer token): a kept answer is stored sealed. */
  secretAnswer?: true;
  /** More of the description, read off the reference data (create-order's checks). */
  appendix?: (ref: ReferenceData) => string;
}

/** A problem document an operator API operation can answer (admin.ts's PROBLEMS), and when. */
export interface ProblemDoc {
  problem: ProblemName;
  when: string;
}

export interface AdminExample extends ExampleRequest {
  /** The answer's status; the body (absent for 204) is JSON on success, a problem document otherwise. */
  status: number;
  response?: unknown;
}

/**
 * An operation of the operator API (`/admin/v1/`, its own port): not in `OPERATIONS`, whose
 * operations the client port serves in an interface's envelope. These speak plain JSON with HTTP
 * statuses, RFC 9457 problem documents on failure, and the operator's bearer token.
 */
export interface AdminOperation {
  id: string;
  method: 'get' | 'post' | 'patch' | 'delete';
  /** Express syntax (`:param`); the document writes `{param}`. */
  path: string;
  summary: string;
  description: string;
  query?: z.ZodObject;
  params?: z.ZodObject;
  body?: z.ZodType;
  /** The success status: 200, 201 (something made), or 204 (no body). */
  status: 200 | 201 | 204;
  /** The success answer's schema; none for 204. */
  success?: z.ZodType;
  /** The success answer carries a Location header (the thing made). */
  location?: true;
  problems: ProblemDoc[];
  /** The first example is the success one. */
  examples: AdminExample[];
}
