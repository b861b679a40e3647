/** HTTP clients of the two interfaces, signing interface B with the stack's clock. */
import { signature } from '@parcel-logistics/gateway';
/** Anything with an address and a clock to sign with: an embedded test stack or a distributed gateway. */
export interface Target {
  url: string;
  clock: { now(): Date };
}

export const realTime = (url: string): Target => ({ url, clock: { now: () => new Date() } });

// Test replies are asserted field by field; `any` keeps those assertions short.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export interface Reply<T = any> {
  status: number;
  body: T;
  headers: Headers;
}

async function send(url: string, init: RequestInit): Promise<Reply> {
  const res = await fetch(url, init);
  const text = await res.text();
  let body: unknown = text;
  try {
    body = JSON.parse(text);
  } catch {
    // left as text: the test asserts on it
  }
  return { status: res.status, body, headers: res.headers };
}

export function signedHeaders(stack: Target, apiName = 'demo', apiKey = 'demo-secret'): Record<string, string> {
  const seed = String(stack.clock.now().getTime());
  return { 'x-auth-name': apiName, 'x-auth-seed': seed, 'x-auth-token': signature(apiName, apiKey, seed) };
}

export const DEMO = { apiName: 'demo', apiKey: 'demo-secret' };
export const OTHER = { apiName: 'other', apiKey: 'other-secret' };

export function clientB(stack: Target, account = DEMO) {
  const headers = () => ({
    'content-type': 'application/json',
    ...signedHeaders(stack, account.apiName, account.apiKey),
  });
  return {
    get: (path: string, query: Record<string, string> = {}) =>
      send(`${stack.url}/v1/openapi/${path}?${new URLSearchParams(query)}`, { headers: headers() }),
    post: (path: string, body: unknown) =>
      send(`${stack.url}/v1/openapi/${path}`, {
        method: 'POST',
        headers: headers(),
        body: typeof body === 'string' ? body : JSON.stringify(body),
      }),
    /** A POST of a CSV file (`text/csv`), with headers besides (an Idempotency-Key). */
    csv: (path: string, file: string | Buffer, extra: Record<string, string> = {}) =>
      send(`${stack.url}/v1/openapi/${path}`, {
        method: 'POST',
        headers: { ...headers(), 'content-type': 'text/csv', ...extra },
        body: typeof file === 'string' ? file : new Uint8Array(file),
      }),
  };
}

export async function tokenFor(stack: Target, account = DEMO): Promise<string> {
  const reply = await send(`${stack.url}/api/auth/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ ApiName: account.apiName, ApiKey: account.apiKey }),
  });
  if (reply.body?.Code !== 0) throw new Error(`token: ${JSON.stringify(reply.body)}`);
  return reply.body.Data.AccessToken as string;
}

export function clientA(stack: Target, token: string | undefined) {
  return {
    post: (path: string, body: unknown) =>
      send(`${stack.url}/api/${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
        body: typeof body === 'string' ? body : JSON.stringify(body),
      }),
  };
}

export const raw = send;
