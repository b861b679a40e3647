import { createHmac } from 'node:crypto';

export interface PushOutcome {
  delivered: boolean;
  status: number | null;
  response: unknown;
}

export const sign = (raw: Buffer, secret: string) => 'sha256=' + createHmac('sha256', secret).update(raw).digest('hex');

/** Singapore time with its offset, seconds precision: 2026-11-22T14:05:09+08:00. */
export function singaporeTime(at: Date): string {
  return new Date(at.getTime() + 8 * 3600_000).toISOString().slice(0, 19) + '+08:00';
}

/**
 * POSTs the exact bytes that were signed. `signature` null sends no signature header;
 * an unreachable callback is an outcome (status null), not an error.
 */
export async function push(url: string, raw: Buffer, signature: string | null): Promise<PushOutcome> {
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (signature !== null) headers['x-carrier-signature'] = signature;
  try {
    const r = await fetch(url, {
      method: 'POST',
      headers,
      body: new Uint8Array(raw),
      signal: AbortSignal.timeout(5000),
    });
    const text = await r.text();
    let response: unknown = text;
    try {
      response = JSON.parse(text);
    } catch {
      // not JSON: keep the text as received
    }
    return { delivered: r.ok, status: r.status, response };
  } catch (e) {
    const err = (typeof e === 'object' && e !== null ? e : {}) as {
      message?: unknown;
      cause?: { code?: unknown; message?: unknown };
    };
    return {
      delivered: false,
      status: null,
      response: String(err.cause?.code ?? err.cause?.message ?? err.message ?? e),
    };
  }
}
