/** Starts the webhook receiver (receiver.mjs) as a child process and talks to it. */
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import path from 'node:path';

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
