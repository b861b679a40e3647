/** `parcelctl`: reads the command line, finds the command, and answers its exit code. */
import { parseArgs } from 'node:util';
import { AdminClient } from '../admin.ts';
import { InterfaceAClient } from '../interfaceA.ts';
import { InterfaceBClient } from '../interfaceB.ts';
import { COMMANDS } from './commands.ts';
import type { Command, CommandOption, Context } from './command.ts';
import { EXIT, UsageError } from './output.ts';

const DEFAULT_URL = 'http://localhost:8080';
const DEFAULT_ADMIN_URL = 'http://127.0.0.1:9080';

/**
 * The token of PARCEL_ADMIN_TOKEN as the service reads it: one token, or `name:token` pairs
 * separated by commas, of which the first's token. An operator may so export the service's own setting.
 */
export function adminToken(value: string): string {
  const first = value.split(',')[0]!.trim();
  return /^[A-Za-z0-9._-]{1,64}:(.+)$/.exec(first)?.[1] ?? first;
}

const OPTIONS = {
  url: { type: 'string' },
  name: { type: 'string' },
  key: { type: 'string' },
  'idempotency-key': { type: 'string' },
  format: { type: 'string' },
  out: { type: 'string' },
  layout: { type: 'string' },
  origin: { type: 'string' },
  destination: { type: 'string' },
  direction: { type: 'string' },
  description: { type: 'string' },
  limit: { type: 'string' },
  cursor: { type: 'string' },
  event: { type: 'string' },
  'admin-url': { type: 'string' },
  'admin-token': { type: 'string' },
  'client-id': { type: 'string' },
  'weight-unit': { type: 'string' },
  'service-types': { type: 'string' },
  'can-cancel': { type: 'string' },
  'batch-create': { type: 'string' },
  'rate-limit': { type: 'string' },
  'retention-days': { type: 'string' },
  before: { type: 'string' },
  wait: { type: 'boolean' },
  csv: { type: 'string' },
  carrier: { type: 'string' },
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

admin takes the operator API's address and token instead: --admin-url (env PARCEL_ADMIN_URL;
default ${DEFAULT_ADMIN_URL}) and --admin-token (env PARCEL_ADMIN_TOKEN); see parcelctl admin --help.

Data goes to standard output as JSON; a failure to standard error as one JSON line
{"error": {kind, code, message, status, data, attempts}}. Reads are retried on network errors,
timeouts, 408, 409, 429 (after Retry-After) and 5xx; so are create-order, import, cancel, erase and
label cn23, which send an Idempotency-Key.

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
    // A flag (--wait) is there or not: 'true' when given.
    const value = values[name] === true ? 'true' : text(name);
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
  const admin = () => {
    const token = text('admin-token') ?? (env.PARCEL_ADMIN_TOKEN ? adminToken(env.PARCEL_ADMIN_TOKEN) : undefined);
    if (!token) throw new UsageError('no operator token: give --admin-token, or set PARCEL_ADMIN_TOKEN');
    return new AdminClient({ baseUrl: text('admin-url') ?? env.PARCEL_ADMIN_URL ?? DEFAULT_ADMIN_URL, token });
  };
  return {
    args,
    options,
    credentials,
    admin,
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
