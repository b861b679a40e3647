/** The Standard Webhooks signature: `v1,` + base64 HMAC-SHA256 of `id.timestamp.body` under the secret's bytes. */
import { createHmac } from 'node:crypto';
import { SECRET_PREFIX } from '@parcel-logistics/webhooks';

export function signature(secret: string, id: string, timestamp: number, body: string): string {
  const key = Buffer.from(secret.slice(SECRET_PREFIX.length), 'base64');
  return `v1,${createHmac('sha256', key).update(`${id}.${timestamp}.${body}`).digest('base64')}`;
}
