/**
 * Per-account token bucket. Every answer to an authenticated request says where the account
 * stands (RateLimit-Limit, -Remaining, -Reset); over the limit, HTTP 429 with Retry-After (decisions.md).
 */
import type { NextFunction, Request, Response } from 'express';
import { CODE_FAILURE, Http } from '@parcel-logistics/contracts';
import type { Clock } from '@parcel-logistics/domain';
import type { Account } from '@parcel-logistics/accounts';
import { sendFor } from './interfaces.ts';

export function rateLimit(servicePerSecond: number, serviceBurst: number, clock: Clock) {
  const buckets = new Map<string, { tokens: number; at: number }>();
  return (req: Request, res: Response, next: NextFunction) => {
    const account = res.locals.account as Account | undefined;
    // An account's own rate (the operator API's setting) has a burst of twice that.
    const perSecond = account?.rateLimitPerSecond ?? servicePerSecond;
    const burst = account?.rateLimitPerSecond === undefined ? serviceBurst : Math.max(1, 2 * perSecond);
    if (perSecond <= 0 || !account) return next();
    const limit = String(burst);
    const now = clock.now().getTime();
    const key = account.clientId;
    const bucket = buckets.get(key) ?? { tokens: burst, at: now };
    bucket.tokens = Math.min(burst, bucket.tokens + ((now - bucket.at) / 1000) * perSecond);
    bucket.at = now;
    buckets.set(key, bucket);
    const allowed = bucket.tokens >= 1;
    if (allowed) bucket.tokens -= 1;
    res.setHeader('RateLimit-Limit', limit);
    res.setHeader('RateLimit-Remaining', String(Math.floor(bucket.tokens)));
    res.setHeader('RateLimit-Reset', String(Math.ceil((burst - bucket.tokens) / perSecond)));
    if (allowed) return next();
    res.setHeader('Retry-After', String(Math.max(1, Math.ceil((1 - bucket.tokens) / perSecond))));
    sendFor(req, res, CODE_FAILURE, Http.rateLimited, 429);
  };
}
