import { BusRemoteError, BusTimeoutError } from '@parcel-logistics/bus';
import { busHeader, decodeValue, headerText } from './codec.ts';
import type { ConsumedRecord } from './codec.ts';

export interface Replies {
  /** Waits for the reply with this correlation id, up to `timeoutMs`. `fail` settles it early. */
  expect<T>(correlationId: string, topic: string, timeoutMs: number): { reply: Promise<T>; fail: (error: Error) => void };
  /** Starts the reply consumer on first use: a bus that never sends requests never reads replies. */
  ready(): Promise<void>;
  close(error: Error): Promise<void>;
}

/**
 * The requests of one bus instance waiting for their replies, whichever client reads the reply
 * topic: a reply record settles the request it answers (the requester and correlation headers).
 */
export function waitingReplies(instanceId: string): Pick<Replies, 'expect'> & { settle(record: ConsumedRecord): void; rejectAll(error: Error): void } {
  const pending = new Map<string, { resolve: (reply: unknown) => void; reject: (error: Error) => void }>();
  return {
    settle(record) {
      const headers = record.headers ?? {};
      if (headerText(headers[busHeader.requester]) !== instanceId) return;
      const waiting = pending.get(headerText(headers[busHeader.correlationId]) ?? '');
      if (!waiting) return; // timed out already
      try {
        const value = decodeValue(record.value);
        if (headerText(headers[busHeader.error]) !== undefined) waiting.reject(new BusRemoteError(String((value as { message?: unknown })?.message)));
        else waiting.resolve(value);
      } catch (error) {
        waiting.reject(error as Error);
      }
    },
    expect<T>(correlationId: string, topic: string, timeoutMs: number) {
      const reply = Promise.withResolvers<T>();
      const finish = () => {
        clearTimeout(timer);
        pending.delete(correlationId);
      };
      const fail = (error: Error) => {
        finish();
        reply.reject(error);
      };
      const timer = setTimeout(() => fail(new BusTimeoutError(topic, timeoutMs)), timeoutMs);
      pending.set(correlationId, {
        resolve: (value) => {
          finish();
          reply.resolve(value as T);
        },
        reject: fail,
      });
      return { reply: reply.promise, fail };
    },
    rejectAll(error) {
      for (const waiting of [...pending.values()]) waiting.reject(error);
    },
  };
}
