/** The subset of a pino logger the bus writes to, so a service can pass its own. */
export interface BusLogger {
  error(fields: object, message: string): void;
  warn(fields: object, message: string): void;
  info(fields: object, message: string): void;
  debug(fields: object, message: string): void;
}

export type BusLogLevel = 'nothing' | 'error' | 'warn' | 'info' | 'debug';

const ranks: Record<BusLogLevel, number> = { nothing: 0, error: 1, warn: 2, info: 3, debug: 4 };

/** One JSON line per entry on stderr: the default when no logger is given. */
const stderrLine = (level: string) => (fields: object, message: string) => {
  process.stderr.write(
    `${JSON.stringify({ level, time: new Date().toISOString(), name: 'bus', msg: message, ...fields })}\n`,
  );
};
export const stderrLogger: BusLogger = {
  error: stderrLine('error'),
  warn: stderrLine('warn'),
  info: stderrLine('info'),
  debug: stderrLine('debug'),
};

/** Drops entries below `level`, so kafkajs's chatter never reaches the console unless asked for. */
export function filtered(logger: BusLogger, level: BusLogLevel): BusLogger {
  const at = (wanted: BusLogLevel, write: BusLogger['error']) =>
    ranks[level] >= ranks[wanted] ? write.bind(logger) : () => undefined;
  return {
    error: at('error', logger.error),
    warn: at('warn', logger.warn),
    info: at('info', logger.info),
    debug: at('debug', logger.debug),
  };
}

export const reasonOf = (error: unknown): string => (error instanceof Error ? error.message : String(error));
