/** Interface A bearer tokens: random, stored only as a SHA-256 hash, one current token per account. */
import { createHash, randomBytes } from 'node:crypto';
import type { TokenStore } from '@parcel-logistics/projections';

const hashToken = (token: string): string => createHash('sha256').update(token, 'utf8').digest('hex');

export async function issueToken(tokens: TokenStore, clientId: string, nowMs: number, ttlS: number) {
  const token = randomBytes(32).toString('base64url');
  const expiresAt = nowMs + ttlS * 1000;
  await tokens.put({ clientId, tokenHash: hashToken(token), issuedAt: nowMs, expiresAt });
  return { token, expiresAt };
}

/** The account and issue time of a current, unexpired token; null for anything else (missing, expired, superseded). */
export async function verifyBearer(
  tokens: TokenStore,
  authorization: string | undefined,
  nowMs: number,
): Promise<{ clientId: string; issuedAt: number } | null> {
  const match = /^Bearer +(\S+)\s*$/i.exec(authorization ?? '');
  if (!match) return null;
  const record = await tokens.findByHash(hashToken(match[1]!));
  return record && record.expiresAt > nowMs ? { clientId: record.clientId, issuedAt: record.issuedAt } : null;
}
