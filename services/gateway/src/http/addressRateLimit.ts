/**
 * Token bucket per client address, for the pages anyone may read without an account (the public
 * tracking page): it blunts enumeration of tracking numbers. The address is the connection's peer
 * (`req.socket.remoteAddress`); behind a proxy every client shares the proxy's bucket.
 */
import type { NextFunction, Request, Response } from 'express';
import type { Clock } from '@parcel-logistics/domain';

/** Buckets kept at most; past it, the full (idle) ones are forgotten first. */
const MAX_BUCKETS = 50_000;

export function addressRateLimit(perMinute: number, clock: Clock, limited: (req: Request, res: Response) => void) {
  const buckets = new Map<string, { tokens: number; at: number }>();
  const perMs = perMinute / 60_000;
  const refill = (bucket: { tokens: number; at: number }, now: number) => {
    bucket.tokens = Math.min(perMinute, bucket.tokens + (now - bucket.at) * perMs);
    bucket.at = now;
  };
  return (req: Request, res: Response, next: NextFunction) => {
    if (perMinute <= 0) return next();
    const now = clock.now().getTime();
    const key = req.socket.remoteAddress ?? 'unknown';
    let bucket = buckets.get(key);
    if (!bucket) {
      if (buckets.size >= MAX_BUCKETS) {
        for (const [k, b] of buckets) {
          refill(b, now);
          if (b.tokens >= perMinute) buckets.delete(k);
        }
        if (buckets.size >= MAX_BUCKETS) buckets.delete(buckets.keys().next().value!);
      }
      bucket = { tokens: perMinute, at: now };
      buckets.set(key, bucket);
    }
    refill(bucket, now);
    res.setHeader('RateLimit-Limit', String(perMinute));
    if (bucket.tokens >= 1) {
      bucket.tokens -= 1;
      res.setHeader('RateLimit-Remaining', String(Math.floor(bucket.tokens)));
      return next();
    }
    res.setHeader('RateLimit-Remaining', '0');
    res.setHeader('Retry-After', String(Math.max(1, Math.ceil((1 - bucket.tokens) / perMs / 1000))));
    limited(req, res);
  };
}
