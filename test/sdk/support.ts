/** Helpers of the SDK suites: clients on a test stack's clock, a fetch that counts and misbehaves on cue, a real-time stack. */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { InterfaceBClient } from '@parcel-logistics/client';
import type { ClientOptions, FetchLike, Order } from '@parcel-logistics/client';
import { DEMO } from '../support/client.ts';
import { orderBody } from '../support/orders.ts';
import { forFile } from '../support/lifecycle.ts';
import { startTestStack, TestClock } from '../support/stack.ts';
import type { TestStack } from '../support/stack.ts';

/** Client options for the demo account, signing with the stack's clock (its seeds are within the server's window). */
export const optionsFor = (stack: TestStack, extra: Partial<ClientOptions> = {}): ClientOptions => ({
  baseUrl: stack.url,
  ...DEMO,
  now: () => stack.clock.now().getTime(),
  ...extra,
});

export const order = (overrides: Record<string, unknown> = {}): Order => orderBody(overrides) as unknown as Order;

export interface Sent {
  method: string;
  path: string;
  headers: Record<string, string>;
  /** The status the client was given, when it was given one. */
  status?: number;
}

/**
 * The global fetch with every request recorded; `before` may answer or throw instead of sending
 * (a failure before the server saw the request), `after` may throw once the server has answered
 * (an answer lost on its way back).
 */
export function recordingFetch(
  hooks: {
    before?: (sent: Sent, index: number) => Response | undefined;
    after?: (sent: Sent, index: number) => void;
  } = {},
) {
  const sent: Sent[] = [];
  const fetchLike: FetchLike = async (url, init) => {
    const request: Sent = {
      method: init.method ?? 'GET',
      path: new URL(url).pathname,
      headers: { ...(init.headers as Record<string, string>) },
    };
    const index = sent.push(request) - 1;
    const canned = hooks.before?.(request, index);
    if (canned) {
      request.status = canned.status;
      return canned;
    }
    const response = await fetch(url, init);
    if (hooks.after) {
      await response.clone().text();
      hooks.after(request, index);
    }
    request.status = response.status;
    return response;
  };
  return { fetch: fetchLike, sent, to: (pathname: string) => sent.filter((s) => s.path === pathname) };
}

/** The error a failed connection gives: fetch's own TypeError. */
export const connectionLost = () =>
  new TypeError('fetch failed', { cause: Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' }) });

/**
 * A stack for clients that sign with the real time (a child process, a packed install): its clock
 * is set to now and then held, so their seeds stay within its 10-minute window for the suite.
 */
export const startRealTimeStack = (env: Record<string, string> = {}): Promise<TestStack> =>
  startTestStack(env, { dataDir: mkdtempSync(path.join(tmpdir(), 'parcel-sdk-')), clock: new TestClock(Date.now()) });

/** A test stack and an interface B client of the demo account on it, started before the file's tests, the stack destroyed after. */
export function useStackWithClientB(): { readonly stack: TestStack; readonly client: InterfaceBClient } {
  const stack = forFile(
    () => startTestStack(),
    (s) => s.destroy(),
  );
  let client: InterfaceBClient | undefined;
  return {
    get stack() {
      return stack();
    },
    get client() {
      return (client ??= new InterfaceBClient(optionsFor(stack())));
    },
  };
}

/** A business error as the SDK and the CLI give it: the server answered 200 with `code` and `message`, at the first attempt. */
export const businessError = (message: string, code = 1, data: unknown = []) => ({
  kind: 'business',
  code,
  message,
  status: 200,
  data,
  attempts: 1,
});
