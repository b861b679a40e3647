/** `parcelctl`: reads the command line, finds the command, and answers its exit code. */
import { parseArgs } from 'node:util';
import { InterfaceAClient } from '../interfaceA.ts';
import { InterfaceBClient } from '../interfaceB.ts';
import { COMMANDS } from './commands.ts';
import type { Command, CommandOption, Context } from './command.ts';
import { EXIT, UsageError } from './output.ts';

const DEFAULT_URL = 'http://localhost:8080';

const OPTIONS = {
  url: { type: 'string' },
  name: { type: 'string' },
  key: { type: 'string' },
  'idempotency-key': { type: 'string' },
  format: { type: 'string' },
  out: { type: 'string' },
  origin: { type: 'string' },
  destination: { type: 'string' },
  direction: { type: 'string' },
  description: { type: 'string' },
  limit: { type: 'string' },
  cursor: { type: 'string' },
  event: { type: 'string' },
  help: { type: 'boolean', short: 'h' },
} as const;

const GLOBAL = new Set(['url', 'name', 'key', 'help']);

const OVERVIEW = `Usage: parcelctl [options] <command> [arguments]

Commands:
${COMMANDS.map((c) => `  ${c.usage.split(' [--')[0]!.padEnd(26)} ${c.summary}`).join('\n')}

Options:
  --url <url>    the gateway (env PARCEL_URL; default ${DEFAULT_URL})
  --name <name>  the account's API name (env PARCEL_API_NAME)
  --key <key>    the account's API key (env PARCEL_API_KEY)
  -h, --help     this help; "parcelctl <command> --help" for one command

Data goes to standard output as JSON; a failure to standard error as one JSON line
{"error": {kind, code, message, status, data, attempts}}. Reads are retried on network errors,
timeouts, 408, 409, 429 (after Retry-After) and 5xx; so are create-order, cancel, erase and label
cn23, which send an Idempotency-Key.

Exit codes:
  0  success
  1  business error: the server answered with a non-zero code (a validation message, "fail", ...)
  2  usage error: unknown command or option, missing argument or credentials, unreadable input
  3  server or network error: HTTP 4xx/5xx, or no answer
`;

const commandHelp = (command: Command): string => `Usage: parcelctl [options] ${command.usage}

${command.summary[0]!.toUpperCase()}${command.summary.slice(1)}.

${command.details}

Global options: --url, --name, --key (see parcelctl --help).
`;

function context(
  command: Command,
  args: string[],
  values: Partial<Record<keyof typeof OPTIONS, string | boolean>>,
  env: NodeJS.ProcessEnv,
): Context {
  const text = (name: keyof typeof OPTIONS) => (typeof values[name] === 'string' ? values[name] : undefined);
  const options: Context['options'] = {};
  for (const name of command.options) {
    const value = text(name);
    if (value !== undefined) options[name] = value;
  }
  const credentials = () => {
    const apiName = text('name') ?? env.PARCEL_API_NAME;
    const apiKey = text('key') ?? env.PARCEL_API_KEY;
    if (!apiName || !apiKey)
      throw new UsageError('no credentials: give --name and --key, or set PARCEL_API_NAME and PARCEL_API_KEY');
    return { apiName, apiKey };
  };
  const client = () => ({ baseUrl: text('url') ?? env.PARCEL_URL ?? DEFAULT_URL, ...credentials() });
  return {
    args,
    options,
    credentials,
    b: () => new InterfaceBClient(client()),
    a: () => new InterfaceAClient(client()),
  };
}

function usage(message: string, command?: Command): number {
  const help = command ? `parcelctl ${command.name} --help` : 'parcelctl --help';
  process.stderr.write(`parcelctl: ${message}\nRun "${help}" for usage.\n`);
  return EXIT.usage;
}

export async function main(argv: string[], env: NodeJS.ProcessEnv = process.env): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({ args: argv, options: OPTIONS, allowPositionals: true, strict: true });
  } catch (error) {
    return usage((error as Error).message);
  }
  const { values, positionals } = parsed;
  const [name, ...args] = positionals;
  if (name === undefined) {
    if (!values.help) return usage('no command given');
    process.stdout.write(OVERVIEW);
    return EXIT.ok;
  }
  const command = COMMANDS.find((c) => c.name === name);
  if (!command) return usage(`unknown command "${name}"`);
  if (values.help) {
    process.stdout.write(commandHelp(command));
    return EXIT.ok;
  }
  const stray = Object.keys(values).find(
    (option) => !GLOBAL.has(option) && !command.options.includes(option as CommandOption),
  );
  if (stray !== undefined) return usage(`${command.name} takes no --${stray}`, command);
  try {
    return await command.run(context(command, args, values, env));
  } catch (error) {
    if (error instanceof UsageError) return usage(error.message, command);
    throw error;
  }
}
