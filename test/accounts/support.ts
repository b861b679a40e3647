/** The operator API's client for tests: JSON in, problem documents out, the admin token given. */
import { raw } from '../support/client.ts';
import type { Reply } from '../support/client.ts';

export const ADMIN_TOKEN = 'ops-token-0123456789abcdef0123456789abcdef';
export const ADMIN_ENV = { PARCEL_ADMIN_TOKEN: `ops:${ADMIN_TOKEN}`, PARCEL_ADMIN_PORT: '0' };

export function adminClient(baseUrl: string, token = ADMIN_TOKEN) {
  const call = (method: string, path: string, body?: unknown): Promise<Reply> =>
    raw(`${baseUrl}/admin/v1${path}`, {
      method,
      headers: {
        authorization: `Bearer ${token}`,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      ...(body === undefined ? {} : { body: typeof body === 'string' ? body : JSON.stringify(body) }),
    });
  return {
    get: (path: string) => call('GET', path),
    post: (path: string, body?: unknown) => call('POST', path, body ?? {}),
    patch: (path: string, body: unknown) => call('PATCH', path, body),
    delete: (path: string) => call('DELETE', path),
  };
}
