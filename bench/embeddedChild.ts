/**
 * A benchmark's server in a child process of its own, so that the load generator does not share
 * its thread: the embedded stack on the data directory given (`node bench/embeddedChild.ts DIR`),
 * on a free port, the rate limiter never limiting; its URL as JSON on the first line of standard
 * output (`startEmbeddedChild` in support.ts reads it). SIGTERM stops it.
 */
import { loadSettings } from '../packages/config/src/index.ts';
import { startEmbedded } from '../services/embedded/src/index.ts';

const dataDir = process.argv[2];
if (!dataDir) throw new Error('usage: node bench/embeddedChild.ts <data directory>');
const settings = loadSettings({
  ...process.env,
  PORT: '0',
  HOST: '127.0.0.1',
  PARCEL_DATA_DIR: dataDir,
  PARCEL_RATE_LIMIT_RPS: '0',
  PARCEL_SANDBOX_PORT: '0',
  LOG_LEVEL: 'warn',
});
const stack = await startEmbedded({ settings });
process.stdout.write(`${JSON.stringify({ url: stack.url })}\n`);
process.once('SIGTERM', () => {
  void stack.stop().then(() => process.exit(0));
});
