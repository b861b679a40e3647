/** Starts the webhook receiver (receiver.mjs) as a child process and talks to it. */
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { clientB } from '../support/client.ts';
import { forFile } from '../support/lifecycle.ts';
import { startTestStack, TestClock } from '../support/stack.ts';
import type { TestStack } from '../support/stack.ts';

export interface Received {
  path: string;
  id: string;
  attempt: number;
  /** `webhook-timestamp`, Unix seconds. */
  timestamp: number;
  verified: boolean;
  signatures: number;
  // The body as the receiver parsed it; assertions read its fields.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  body: any;
  at: number;
}

export interface Receiver {
  url: string;
  configure(options: { secrets: string[]; failFirst?: number }): Promise<void>;
  received(): Promise<Received[]>;
  stop(): void;
}

export async function startReceiver(): Promise<Receiver> {
  const child: ChildProcess = spawn(process.execPath, [path.join(__dirname, 'receiver.mjs')], {
    cwd: __dirname,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const port = await new Promise<number>((resolve, reject) => {
    child.once('error', reject);
    child.stdout!.once('data', (data: Buffer) => resolve(Number(String(data).trim())));
  });
  const url = `http://127.0.0.1:${port}`;
  return {
    url,
    async configure({ secrets, failFirst = 0 }) {
      await fetch(`${url}/config`, { method: 'POST', body: JSON.stringify({ secrets, failFirst }) });
    },
    async received() {
      return (await (await fetch(`${url}/received`)).json()) as Received[];
    },
    stop: () => child.kill(),
  };
}

/** A new endpoint through `client` (the body as create-endpoint takes it: url, event_types, …): its id and secret. */
export async function createEndpoint(
  client: ReturnType<typeof clientB>,
  body: { url: string; event_types: string[]; description?: string },
): Promise<{ id: string; secret: string }> {
  const created = await client.post('webhook/create-endpoint', body);
  expect(created.body.code).toBe(0);
  return { id: created.body.data.endpoint_id as string, secret: created.body.data.secret as string };
}

/**
 * A new endpoint at `receiver`, which is then set to verify its secret and refuse the first
 * `failFirst` attempts of each message: its id and secret.
 */
export async function subscribe(
  client: ReturnType<typeof clientB>,
  receiver: Receiver,
  body: { url: string; event_types: string[] },
  failFirst = 0,
): Promise<{ id: string; secret: string }> {
  const endpoint = await createEndpoint(client, body);
  await receiver.configure({ secrets: [endpoint.secret], failFirst });
  return endpoint;
}

/**
 * A file's test stack and receiver: before its tests, a test stack that delivers to private
 * addresses (the receiver's) and polls its delivery queue every 20 ms, with `env` besides (which
 * may set another poll), and a receiver; after them, both stopped.
 * `realTime`: the stack's clock starts at now, for delivery and the store run on real time
 * (receivers check webhook-timestamp; a replay's `since` is then within the gateway's cap).
 */
export function useStackAndReceiver(
  env: Record<string, string>,
  options: { realTime?: boolean } = {},
): { readonly stack: TestStack; readonly receiver: Receiver } {
  const started = forFile(
    async () => {
      const reuse = options.realTime
        ? { dataDir: mkdtempSync(path.join(tmpdir(), 'parcel-test-')), clock: new TestClock(Date.now()) }
        : undefined;
      const stack = await startTestStack(
        { PARCEL_WEBHOOK_ALLOW_PRIVATE: 'on', PARCEL_WEBHOOK_POLL_MS: '20', ...env },
        reuse,
      );
      return { stack, receiver: await startReceiver() };
    },
    async ({ stack, receiver }) => {
      receiver.stop();
      await stack.destroy();
    },
  );
  return {
    get stack() {
      return started().stack;
    },
    get receiver() {
      return started().receiver;
    },
  };
}
