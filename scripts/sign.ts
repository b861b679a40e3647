/**
 * Prints interface B's signed headers for an account, with a fresh seed, one `name: value` line
 * each, the format of `curl -H @file`:
 *   npm run -s sign -- <apiName> <apiKey>        (defaults: demo demo-secret)
 *   curl -H @<(npm run -s sign) "http://localhost:8080/v1/openapi/station/get-stations?postcode=238858"
 * token = md5(lower(apiName) + apiKey + seed), seed = 13-digit Unix time in milliseconds.
 * (Lines rather than `-H '...'` options: a shell does not re-parse quotes printed by `$(...)`.)
 */
import { signature } from '../services/gateway/src/auth/signature.ts';

const [apiName = 'demo', apiKey = 'demo-secret'] = process.argv.slice(2);
const seed = String(Date.now());
const token = signature(apiName, apiKey, seed);
process.stdout.write(`x-auth-name: ${apiName}\nx-auth-seed: ${seed}\nx-auth-token: ${token}\n`);
