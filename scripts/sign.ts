/**
 * Prints interface B's signed headers for an account, with a fresh seed:
 *   npm run sign -- <apiName> <apiKey>        (defaults: demo demo-secret)
 * token = md5(lower(apiName) + apiKey + seed), seed = 13-digit Unix time in milliseconds.
 */
import { signature } from '../services/gateway/src/auth/signature.ts';

const [apiName = 'demo', apiKey = 'demo-secret'] = process.argv.slice(2);
const seed = String(Date.now());
const token = signature(apiName, apiKey, seed);
console.log(`-H 'x-auth-name: ${apiName}' -H 'x-auth-seed: ${seed}' -H 'x-auth-token: ${token}'`);
