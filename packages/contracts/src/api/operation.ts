/**
 * What an operation of the HTTP surface is: its security, tag, errors and examples. Apart from the
 * list of operations (operations.ts), so that the files contributing operations to that list
 * (tracking, webhook endpoints, webhook log) take the type without importing the list.
 */
import type { z } from 'zod';
import type { ReferenceData } from '@parcel-logistics/reference-data';

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

export interface Example {
  name: string;
  summary: string;
  query?: Record<string, string>;
  params?: Record<string, string>;
  body?: unknown;
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
