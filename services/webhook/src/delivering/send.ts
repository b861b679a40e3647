/**
 * One HTTP attempt at a webhook: POST, no redirect followed (node:http follows none), a deadline
 * for the whole exchange, the answer read only up to a bound. The destination rule is applied to
 * every address the host name resolves to, inside the connection's own lookup, so the address
 * checked is the address connected to (no window for DNS rebinding); a literal IP is checked first.
 * With `connections` (one set per dispatcher) a connection whose answer was read to its end is kept
 * for the next attempt at the same origin: a new one costs a connect, and the checks, per attempt.
 */
import dns from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import { literalAddress, refusedRange } from '@parcel-logistics/webhooks';

/** `answer`: the first bytes of the answer's body as text (the delivery log keeps them); empty when there was none. */
export type Attempt =
  | { outcome: 'delivered'; status: number; answer: string }
  | { outcome: 'retry' | 'failed'; status: number | null; reason: string; answer: string };

/** Bytes of an answer's body kept as text for the delivery log. */
export const ANSWER_KEPT_BYTES = 256;

export interface SendOptions {
  timeoutMs: number;
  allowPrivate: boolean;
  /** Bytes of the answer read before the connection is dropped. */
  maxAnswerBytes?: number;
  /** Connections kept alive between attempts (`keptAlive`); without them each attempt has a connection of its own. */
  connections?: Connections;
}

export interface Connections {
  http: http.Agent;
  https: https.Agent;
  close(): void;
}

class RefusedDestination extends Error {}

const RETRIED_STATUSES = new Set([408, 429]);

function guardedLookup(allowPrivate: boolean): LookupFunction {
  return (hostname, options, callback) => {
    dns.lookup(hostname, { ...options, all: true }, (err, addresses) => {
      if (err) return callback(err, '', 4);
      const refused = addresses
        .map((a) => ({ a, range: refusedRange(a.address, { allowPrivate }) }))
        .find((r) => r.range !== undefined);
      if (refused)
        return callback(
          new RefusedDestination(`${hostname} resolves to ${refused.range} address ${refused.a.address}`),
          '',
          4,
        );
      if (options.all) return (callback as unknown as (e: null, all: dns.LookupAddress[]) => void)(null, addresses);
      const first = addresses[0]!;
      callback(null, first.address, first.family);
    });
  };
}

/** Kept-alive connections whose every new connection is checked by the destination rule, as in `send`. */
export function keptAlive(allowPrivate: boolean): Connections {
  const options = { keepAlive: true, lookup: guardedLookup(allowPrivate) };
  const agents = { http: new http.Agent(options), https: new https.Agent(options) };
  return { ...agents, close: () => Object.values(agents).forEach((a) => a.destroy()) };
}

export function send(
  url: string,
  headers: Record<string, string>,
  body: string,
  options: SendOptions,
): Promise<Attempt> {
  const literal = literalAddress(url);
  const range = literal === undefined ? undefined : refusedRange(literal, { allowPrivate: options.allowPrivate });
  if (range)
    return Promise.resolve({
      outcome: 'failed',
      status: null,
      reason: `refused destination: ${range} address`,
      answer: '',
    });
  const maxAnswerBytes = options.maxAnswerBytes ?? 4096;
  const target = new URL(url);
  const secure = target.protocol === 'https:';
  const request = secure ? https.request : http.request;
  return new Promise<Attempt>((resolve) => {
    let settled = false;
    // Once an answer is read to its end its connection is back with the agent: destroying the request leaves it open.
    const settle = (attempt: Attempt) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      req.destroy();
      resolve(attempt);
    };
    const req = request(target, {
      method: 'POST',
      headers: { ...headers, 'content-length': String(Buffer.byteLength(body)) },
      lookup: guardedLookup(options.allowPrivate),
      agent: options.connections ? (secure ? options.connections.https : options.connections.http) : false,
    });
    const timer = setTimeout(
      () => settle({ outcome: 'retry', status: null, reason: `no answer within ${options.timeoutMs} ms`, answer: '' }),
      options.timeoutMs,
    );
    req.on('error', (err) =>
      settle(
        err instanceof RefusedDestination
          ? { outcome: 'failed', status: null, reason: `refused destination: ${err.message}`, answer: '' }
          : { outcome: 'retry', status: null, reason: `network error: ${err.message}`, answer: '' },
      ),
    );
    req.on('response', (res) => {
      const status = res.statusCode ?? 0;
      let read = 0;
      const kept: Buffer[] = [];
      const done = () => {
        const answer = Buffer.concat(kept).subarray(0, ANSWER_KEPT_BYTES).toString('utf8');
        if (status >= 200 && status < 300) settle({ outcome: 'delivered', status, answer });
        else if (status >= 500 || RETRIED_STATUSES.has(status))
          settle({ outcome: 'retry', status, reason: `HTTP ${status}`, answer });
        else settle({ outcome: 'failed', status, reason: `HTTP ${status}`, answer });
      };
      res.on('data', (chunk: Buffer) => {
        if (read < ANSWER_KEPT_BYTES) kept.push(chunk.subarray(0, ANSWER_KEPT_BYTES - read));
        read += chunk.length;
        if (read >= maxAnswerBytes) done();
      });
      res.on('end', done);
      res.on('error', done);
    });
    req.end(body);
  });
}
