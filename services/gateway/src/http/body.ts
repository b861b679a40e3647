/**
 * Request bodies: read as bytes, at most 5 MiB, and parsed as JSON that must be an object, whatever
 * the Content-Type says, except `text/csv` (import-orders), whose bytes are left to its route.
 * Everything else is a system error of the HTTP layer (decisions.md, HTTP statuses).
 */
import type { NextFunction, Request, Response } from 'express';
import { CODE_FAILURE, Http } from '@parcel-logistics/contracts';
import { inCurrentContext } from '@parcel-logistics/telemetry';
import { sendFor } from './interfaces.ts';

const BODY_LIMIT_BYTES = 5 * 1024 * 1024;

export function jsonObjectBody(req: Request, res: Response, next: NextFunction): void {
  if (req.method !== 'POST' && req.method !== 'PUT' && req.method !== 'PATCH') return next();
  const chunks: Buffer[] = [];
  let size = 0;
  let done = false;
  const declared = Number(req.headers['content-length'] ?? 0);
  if (declared > BODY_LIMIT_BYTES) return tooLarge(req, res);
  req.on('data', (chunk: Buffer) => {
    if (done) return;
    size += chunk.length;
    if (size > BODY_LIMIT_BYTES) {
      done = true;
      tooLarge(req, res);
      return;
    }
    chunks.push(chunk);
  });
  // The body's events come in the connection's async context: the request goes on in its own (its trace span).
  req.on(
    'end',
    inCurrentContext(() => {
      if (done) return;
      done = true;
      let parsed: unknown;
      const raw = Buffer.concat(chunks);
      // Signed callbacks are verified over the exact bytes received.
      res.locals.rawBody = raw;
      if (isCsv(req)) {
        req.body = raw;
        return next();
      }
      try {
        parsed = JSON.parse(raw.toString('utf8'));
      } catch {
        return sendFor(req, res, CODE_FAILURE, Http.invalidJson, 400);
      }
      if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) {
        return sendFor(req, res, CODE_FAILURE, Http.invalidJson, 400);
      }
      req.body = parsed;
      next();
    }),
  );
  req.on('error', () => {
    done = true;
  });
}

/** A `text/csv` body (parameters such as `charset` aside). */
export const isCsv = (req: Request): boolean =>
  (req.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase() === 'text/csv';

function tooLarge(req: Request, res: Response): void {
  res.setHeader('Connection', 'close');
  sendFor(req, res, CODE_FAILURE, Http.bodyTooLarge, 413);
  // Stop reading what the client keeps sending; the connection closes after the answer.
  req.resume();
}
