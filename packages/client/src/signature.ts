/** Interface B's request signature: token = md5(lower(apiName) + apiKey + seed), lower-case hex. */
import { createHash } from 'node:crypto';

/** The three headers that authenticate one interface B request. */
export type SignedHeaders = {
  'x-auth-name': string;
  'x-auth-seed': string;
  'x-auth-token': string;
};

export const signature = (apiName: string, apiKey: string, seed: string): string =>
  createHash('md5')
    .update(apiName.toLowerCase() + apiKey + seed, 'utf8')
    .digest('hex');

/**
 * Headers for a request sent now. The seed is the time in milliseconds (13 digits); the server
 * refuses one more than 10 minutes away from its own clock, so every attempt signs afresh.
 */
export function signedHeaders(apiName: string, apiKey: string, nowMs: number = Date.now()): SignedHeaders {
  const seed = String(Math.trunc(nowMs));
  return { 'x-auth-name': apiName, 'x-auth-seed': seed, 'x-auth-token': signature(apiName, apiKey, seed) };
}
