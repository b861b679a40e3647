/**
 * Idempotency-Key on every POST of both interfaces: the first request with a key claims it in the
 * shared store and does the work; its answer is kept, and a request repeated with the same key and
 * the same method, path and body within the TTL gets that answer again, byte for byte, without the
 * work being done twice. Concurrent requests with one key wait for the first one's answer.
 *
 * The request's fingerprint is a hash keyed by a secret derived from the account's API key, so the
 * store holds no plain hash of a body (a token issuance's body holds the API key). The answers of
 * operations that return a secret (token issuance) are kept sealed (AES-256-GCM) under another
 * derived key: the store never holds a bearer token readable. System errors (5xx) are not kept:
 * the claim is released, so a retry runs again.
 *
 * A route whose answer may hold a parcel's personal values (interface A's create-label: the CN23
 * label) names the parcel (`answerConcerns`); the answer is kept with its number, and erasing the
 * parcel's personal data deletes it (`IdempotencyStore.forgetParcels`): a repeat then runs anew.
 */
import { createCipheriv, createDecipheriv, hash, hkdfSync, randomBytes, randomUUID } from 'node:crypto';
import type { NextFunction, Request, Response } from 'express';
import { CODE_FAILURE, Idempotency } from '@parcel-logistics/contracts';
import type { Clock } from '@parcel-logistics/domain';
import type { IdempotencyRecord, IdempotencyStore } from '@parcel-logistics/projections';
import type { Account } from '@parcel-logistics/accounts';
import type { Logger } from 'pino';
import { accountOf } from '../context.ts';
import type { GatewayContext } from '../context.ts';
import { sendFor } from './interfaces.ts';

/** 1 to 255 visible ASCII characters. */
const KEY = /^[\x21-\x7e]{1,255}$/;
const PURGE_EVERY_MS = 10 * 60 * 1000;

export interface IdempotencyOptions {
  store: IdempotencyStore;
  clock: Clock;
  log: Logger;
  ttlMs: number;
  /** How long a claim is held for its request before another request may take it over (its request died). */
  leaseMs: number;
  /** How often a request waiting for another one's answer looks again. */
  pollMs?: number;
}

interface Secrets {
  seal: Buffer;
  fingerprint: Buffer;
}

/** Under the account's oldest active key: answers kept before a rotation stay readable until that key is revoked. */
const derive = (account: Account, use: string): Buffer =>
  Buffer.from(
    hkdfSync('sha256', account.keys[0]?.secret ?? '', 'parcel-idempotency', `${use}:${account.clientId}`, 32),
  );

function seal(key: Buffer, text: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  const body = Buffer.concat([cipher.update(text, 'utf8'), cipher.final()]);
  return Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64');
}

/** The sealed text, or undefined when it was sealed under another key (the account's API key changed). */
function open(key: Buffer, sealed: string): string | undefined {
  const bytes = Buffer.from(sealed, 'base64');
  try {
    const decipher = createDecipheriv('aes-256-gcm', key, bytes.subarray(0, 12));
    decipher.setAuthTag(bytes.subarray(12, 28));
    return Buffer.concat([decipher.update(bytes.subarray(28)), decipher.final()]).toString('utf8');
  } catch {
    return undefined;
  }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const PARCELS = 'idempotencyParcels';

/** Names the parcels the route's answer concerns: erasing one's personal data drops the kept answer. */
export function answerConcerns(res: Response, trackingNumbers: readonly string[]): void {
  res.locals[PARCELS] = trackingNumbers;
}

const parcelsOf = (res: Response): readonly string[] => (res.locals[PARCELS] as readonly string[] | undefined) ?? [];

/** The middleware of one route, given whether its answers hold a secret (and are kept sealed). */
export function idempotency(options: IdempotencyOptions): GatewayContext['idempotency'] {
  const { store, clock, log, ttlMs, leaseMs, pollMs = 50 } = options;
  const secrets = new Map<string, Secrets>();
  const secretsOf = (account: Account): Secrets => {
    let found = secrets.get(account.clientId);
    if (!found) {
      found = { seal: derive(account, 'seal'), fingerprint: derive(account, 'fingerprint') };
      secrets.set(account.clientId, found);
    }
    return found;
  };
  let purgedAt = Number.NEGATIVE_INFINITY;
  const purge = (now: number) => {
    if (now - purgedAt < PURGE_EVERY_MS) return;
    purgedAt = now;
    store.purgeExpired(now).catch((err: unknown) => log.warn({ err }, 'idempotency: purging expired keys failed'));
  };

  /** Answers with a kept answer: the same status and the same bytes. */
  const replay = (res: Response, record: IdempotencyRecord, text: string) => {
    res.status(record.answer!.status).setHeader('Idempotent-Replayed', 'true');
    res.type('application/json').send(text);
  };

  /** Runs the route and keeps its answer (sealed when `seal` is given) before sending it. */
  const run = (
    res: Response,
    next: NextFunction,
    clientId: string,
    key: string,
    owner: string,
    seal: ((text: string) => string) | undefined,
  ) => {
    // A client that goes away before the answer (its own timeout) does not lose it: the work goes on,
    // its answer is kept when it comes, and the client's retry gets it. A route that never answers
    // leaves the claim to lapse after its lease.
    res.json = (body: unknown) => {
      const text = JSON.stringify(body);
      const status = res.statusCode;
      const send = () => res.type('application/json').send(text);
      const kept =
        status >= 500
          ? store.release(clientId, key, owner)
          : store
              .complete(clientId, key, owner, { status, body: seal ? seal(text) : text }, parcelsOf(res))
              .then((held) => {
                if (!held)
                  log.warn({ clientId }, 'idempotency: the claim lapsed and was taken over before the answer was kept');
              });
      // The answer goes out even when it could not be kept: the work is done, and a retry would find the claim lapsed.
      kept
        .catch((err: unknown) => log.error({ err, clientId }, 'idempotency: keeping the answer failed'))
        .finally(send);
      return res;
    };
    next();
  };

  return (secretAnswer) => async (req: Request, res: Response, next: NextFunction) => {
    const key = req.header(Idempotency.header);
    if (key === undefined) return next();
    if (!KEY.test(key)) return sendFor(req, res, CODE_FAILURE, Idempotency.invalid, 200);
    const account = accountOf(res);
    const secret = secretsOf(account);
    const raw = (res.locals.rawBody as Buffer | undefined) ?? Buffer.alloc(0);
    // A one-shot hash over the secret, the request line and the body: as unguessable as an HMAC here, a tenth of its cost.
    const fingerprint = hash(
      'sha256',
      Buffer.concat([secret.fingerprint, Buffer.from(`${req.method} ${req.path}\n`), raw]),
      'hex',
    );
    const owner = randomUUID();
    const giveUpAt = performance.now() + leaseMs + 1000;
    for (;;) {
      const now = clock.now().getTime();
      purge(now);
      const claim = await store.claim({
        clientId: account.clientId,
        key,
        fingerprint,
        owner,
        now,
        lockedUntil: now + leaseMs,
        expiresAt: now + ttlMs,
      });
      if (claim.claimed)
        return run(
          res,
          next,
          account.clientId,
          key,
          owner,
          secretAnswer ? (text) => seal(secret.seal, text) : undefined,
        );
      const { record } = claim;
      if (record.fingerprint !== fingerprint) return sendFor(req, res, CODE_FAILURE, Idempotency.reused(key), 200);
      if (record.state === 'done') {
        const text = secretAnswer ? open(secret.seal, record.answer!.body) : record.answer!.body;
        // Kept under the account's former API key: it cannot be read, so it cannot be answered again.
        if (text === undefined) return sendFor(req, res, CODE_FAILURE, Idempotency.reused(key), 200);
        return replay(res, record, text);
      }
      if (performance.now() > giveUpAt) return sendFor(req, res, CODE_FAILURE, Idempotency.inProgress(key), 409);
      await sleep(pollMs);
    }
  };
}
