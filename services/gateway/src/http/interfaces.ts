/** Which interface a path belongs to decides the envelope's casing and the generic error text. */
import type { Request, Response } from 'express';
import { CODE_FAILURE, envelopeA, envelopeB } from '@parcel-logistics/contracts';

export type Interface = 'A' | 'B';

export const interfaceOf = (path: string): Interface => (path.startsWith('/api/') || path === '/api' ? 'A' : 'B');

export function sendA(res: Response, code: number, message: string, data: unknown, status = 200): void {
  res.status(status).json(envelopeA(code, message, data));
}

export function sendB(res: Response, code: number, message: string, data: unknown, status = 200): void {
  res.status(status).json(envelopeB(code, message, data));
}

/**
 * A B failure answer (code 1, empty data): what every refused request of interface B gets, with
 * HTTP 200 unless the operation answers another status (404 unknown asset, 401 bad signature, …).
 */
export const failB = (res: Response, message: string, status = 200): void =>
  sendB(res, CODE_FAILURE, message, [], status);

export function sendFor(req: Request, res: Response, code: number, message: string, status: number): void {
  if (interfaceOf(req.path) === 'A') sendA(res, code, message, [], status);
  else sendB(res, code, message, [], status);
}
