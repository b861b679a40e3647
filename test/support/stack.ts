/** Starts the embedded stack on a free port with a temp data dir and a clock the test controls. */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import pino from 'pino';
import type { Logger } from 'pino';
import { loadSettings } from '@parcel-logistics/config';
import type { Settings } from '@parcel-logistics/config';
import { startEmbedded } from '@parcel-logistics/embedded';
import type { EmbeddedStack } from '@parcel-logistics/embedded';

/** A logger at trace level whose lines a test reads back: everything a stack logged. */
export function capturedLog(): { lines: string[]; log: Logger } {
  const lines: string[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(chunk.toString('utf8'));
      done();
    },
  });
  return { lines, log: pino({ level: 'trace' }, sink) };
}

export class TestClock {
  private ms: number;
  constructor(start = Date.parse('2026-11-22T06:05:09Z')) {
    this.ms = start;
  }
  now = (): Date => new Date(this.ms);
  advance(ms: number): void {
    this.ms += ms;
  }
}

export interface TestStack extends EmbeddedStack {
  clock: TestClock;
  dataDir: string;
  settings: Settings;
  /** Stops and starts again on the same data directory. */
  restart(): Promise<TestStack>;
  /** Stops and deletes the data directory. */
  destroy(): Promise<void>;
}

/**
 * The settings of a test's embedded stack on `dataDir`: local, any free port (the sandbox's too),
 * no fsync per commit, no rate limit, carrier retries after 50 ms; `env` besides.
 */
export function testSettings(dataDir: string, env: Record<string, string> = {}): Settings {
  return loadSettings({
    PORT: '0',
    HOST: '127.0.0.1',
    PARCEL_DATA_DIR: dataDir,
    PARCEL_DURABILITY: 'normal',
    PARCEL_RATE_LIMIT_RPS: '0',
    PARCEL_SANDBOX_PORT: '0',
    PARCEL_CARRIER_RETRY_MS: '50',
    ...env,
  });
}

export async function startTestStack(
  env: Record<string, string> = {},
  reuse?: { dataDir: string; clock: TestClock },
  log: Logger = pino({ level: process.env.TEST_LOG_LEVEL ?? 'silent' }),
): Promise<TestStack> {
  const dataDir = reuse?.dataDir ?? mkdtempSync(path.join(tmpdir(), 'parcel-test-'));
  const clock = reuse?.clock ?? new TestClock();
  const settings = testSettings(dataDir, env);
  const stack = await startEmbedded({ settings, clock, log });
  return {
    ...stack,
    clock,
    dataDir,
    settings,
    async restart() {
      await stack.stop();
      return startTestStack(env, { dataDir, clock }, log);
    },
    async destroy() {
      await stack.stop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
