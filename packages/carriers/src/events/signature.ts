import { createHmac, timingSafeEqual } from 'node:crypto';

const HEADER = /^sha256=([0-9a-fA-F]{64})$/;

/** `X-Carrier-Signature: sha256=<hex HMAC-SHA256 of the raw body>`; anything else is refused. */
export function verifyCarrierSignature(rawBody: Buffer, header: string | undefined, secret: string): boolean {
  if (!secret || typeof header !== 'string') return false;
  const m = HEADER.exec(header.trim());
  if (!m) return false;
  const expected = createHmac('sha256', secret).update(rawBody).digest();
  return timingSafeEqual(Buffer.from(m[1]!, 'hex'), expected);
}
