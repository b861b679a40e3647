import pino from 'pino';
import { loadSettings } from '@parcel-logistics/config';
import { loggerOptions } from '@parcel-logistics/telemetry';
import { startEmbedded } from './embedded.ts';

const settings = loadSettings();
const log = pino(loggerOptions({ level: settings.logLevel }));
// The handlers are in place before the stack starts: a signal while it starts (it answers
// /readyz before its last workers are up) stops it once it has started, instead of killing the
// process with the stores open.
const starting = startEmbedded({ settings, log });
// One stop for however many signals arrive: Ctrl-C sends SIGINT to the whole process group and
// npm forwards one more, so a second SIGINT (or a SIGTERM) during the stop must not fall through
// to the default handler, which would kill the process before the stores are closed.
let stopping = false;
const stop = (signal: NodeJS.Signals) => {
  if (stopping) return;
  stopping = true;
  log.info({ signal }, 'parcel service (embedded) stopping');
  void starting
    .then((stack) => stack.stop())
    .then(
      () => {
        log.info('parcel service (embedded) stopped');
        process.exit(0);
      },
      (err: unknown) => {
        log.error({ err }, 'parcel service (embedded) failed to stop cleanly');
        process.exit(1);
      },
    );
};
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, stop);
await starting;
