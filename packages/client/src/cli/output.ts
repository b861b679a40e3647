/**
 * How the command line reports: data as JSON on stdout, a failure as one JSON line on stderr, and
 * an exit code a script can branch on.
 */
import type { ApiError, Result } from '../result.ts';

export const EXIT = {
  ok: 0,
  /** The server answered with a business error (HTTP 200, a non-zero code). */
  business: 1,
  /** The command line was wrong: unknown command or option, missing argument, unreadable input. */
  usage: 2,
  /** A system error (HTTP 4xx/5xx) or no answer at all (connection refused, timeout). */
  unavailable: 3,
} as const;

/** A mistake in the command line; the message says which. */
export class UsageError extends Error {}

export const printJson = (data: unknown): void => {
  process.stdout.write(`${JSON.stringify(data, null, 2)}\n`);
};

/** Everything of the error a script can use; the thrown cause is summed up in the message already. */
const fields = ({ kind, code, message, status, data, attempts }: ApiError) => ({
  kind,
  code,
  message,
  status,
  data,
  attempts,
});

/** Shows a result: its data (as JSON unless `show` says otherwise), or its error; answers the exit code. */
export async function report<T>(
  result: Result<T>,
  show: (data: T) => void | Promise<void> = printJson,
): Promise<number> {
  if (result.ok) {
    await show(result.data);
    return EXIT.ok;
  }
  process.stderr.write(`${JSON.stringify({ error: fields(result.error) })}\n`);
  return result.error.kind === 'business' ? EXIT.business : EXIT.unavailable;
}

/** The same result with its data turned into something else. */
export const mapData = <T, U>(result: Result<T>, f: (data: T) => U): Result<U> =>
  result.ok ? { ...result, data: f(result.data) } : result;
