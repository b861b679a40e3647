/**
 * `parcelctl admin …`: the operator API (accounts, their keys, the audit log) on the service's
 * admin port, with an operator's token; one sub-command per operation.
 */
import type { AdminResult } from '../admin.ts';
import type { CreateAccountRequest, UpdateAccountRequest } from '../types.ts';
import type { Command, CommandOption, Context } from './command.ts';
import { EXIT, printJson, UsageError } from './output.ts';

const ACCOUNT_SUBCOMMANDS = ['create', 'list', 'show', 'update', 'disable', 'enable'] as const;
const KEY_SUBCOMMANDS = ['issue', 'list', 'revoke'] as const;
const WEIGHT_UNITS = ['kg', 'g', 'lb'] as const;

/** The settings options, each with the field of the request it sets. */
const SETTINGS = {
  'weight-unit': 'weightUnit',
  'service-types': 'serviceTypes',
  'can-cancel': 'canCancel',
  'batch-create': 'batchCreate',
  'rate-limit': 'rateLimitPerSecond',
  'retention-days': 'retentionDays',
} as const satisfies Partial<Record<CommandOption, keyof UpdateAccountRequest>>;
type Setting = keyof typeof SETTINGS;
/** The settings `default` clears back to the service's own (on update). */
const OPTIONAL: readonly Setting[] = ['batch-create', 'rate-limit', 'retention-days'];

/** A problem the operator API answered about the request (no account, exists, invalid): exit 1, as a business error. */
const REFUSED = new Set([400, 404, 409, 422]);

/** Shows an operator API result: its data as JSON, or its error as one JSON line on stderr; answers the exit code. */
export function reportAdmin<T>(result: AdminResult<T>, show: (data: T) => unknown = (data) => data): number {
  if (result.ok) {
    printJson(show(result.data));
    return EXIT.ok;
  }
  const { kind, status, message, problem, body, attempts } = result.error;
  process.stderr.write(`${JSON.stringify({ error: { kind, status, message, problem, body, attempts } })}\n`);
  return kind === 'problem' && status !== null && REFUSED.has(status) ? EXIT.business : EXIT.unavailable;
}

function args(context: Context, count: number, what: string): string[] {
  if (context.args.length !== count) throw new UsageError(`admin ${what}`);
  return context.args;
}

function flag(name: Setting, value: string, clearable: boolean): boolean | null {
  if (clearable && value === 'default') return null;
  if (['true', 'yes', 'on'].includes(value)) return true;
  if (['false', 'no', 'off'].includes(value)) return false;
  throw new UsageError(`--${name} takes true or false${clearable ? ', or default' : ''}`);
}

function whole(name: Setting, value: string, clearable: boolean): number | null {
  if (clearable && value === 'default') return null;
  if (!/^\d+$/.test(value)) throw new UsageError(`--${name} takes a whole number${clearable ? ', or default' : ''}`);
  return Number(value);
}

/** The settings the options give; on update, `default` clears an optional one (null). */
function settings(context: Context, update: boolean): UpdateAccountRequest {
  const out: Record<string, unknown> = {};
  for (const [name, field] of Object.entries(SETTINGS) as [Setting, (typeof SETTINGS)[Setting]][]) {
    const value = context.options[name];
    if (value === undefined) continue;
    const clearable = update && OPTIONAL.includes(name);
    switch (name) {
      case 'weight-unit':
        if (!(WEIGHT_UNITS as readonly string[]).includes(value))
          throw new UsageError(`--weight-unit takes ${WEIGHT_UNITS.join(', ')}`);
        out[field] = value;
        break;
      case 'service-types':
        out[field] = value
          .split(',')
          .map((t) => t.trim())
          .filter(Boolean);
        break;
      case 'can-cancel':
      case 'batch-create':
        out[field] = flag(name, value, clearable);
        break;
      case 'rate-limit':
      case 'retention-days':
        out[field] = whole(name, value, clearable);
        break;
    }
  }
  return out as UpdateAccountRequest;
}

async function accounts(context: Context, sub: string | undefined): Promise<number> {
  const admin = context.admin();
  switch (sub) {
    case 'create': {
      const [apiName] = args(context, 1, 'accounts create takes exactly one API name');
      const clientId = context.options['client-id'];
      const body: CreateAccountRequest = {
        apiName: apiName!,
        ...(clientId === undefined ? {} : { clientId }),
        ...(settings(context, false) as Omit<CreateAccountRequest, 'apiName'>),
      };
      return reportAdmin(await admin.createAccount(body));
    }
    case 'list':
      args(context, 0, 'accounts list takes no arguments');
      return reportAdmin(await admin.listAccounts());
    case 'show':
      return reportAdmin(await admin.getAccount(args(context, 1, 'accounts show takes exactly one API name')[0]!));
    case 'update': {
      const [apiName] = args(context, 1, 'accounts update takes exactly one API name');
      const changes = settings(context, true);
      if (Object.keys(changes).length === 0)
        throw new UsageError(
          `accounts update takes at least one of ${Object.keys(SETTINGS)
            .map((s) => `--${s}`)
            .join(', ')}`,
        );
      return reportAdmin(await admin.updateAccount(apiName!, changes));
    }
    case 'disable':
    case 'enable': {
      const [apiName] = args(context, 1, `accounts ${sub} takes exactly one API name`);
      return reportAdmin(await (sub === 'disable' ? admin.disableAccount(apiName!) : admin.enableAccount(apiName!)));
    }
    default:
      throw new UsageError(`give one of: admin accounts ${ACCOUNT_SUBCOMMANDS.join(', ')}`);
  }
}

async function keys(context: Context, sub: string | undefined): Promise<number> {
  const admin = context.admin();
  switch (sub) {
    case 'issue':
      return reportAdmin(await admin.issueKey(args(context, 1, 'keys issue takes exactly one API name')[0]!));
    case 'list':
      return reportAdmin(await admin.listKeys(args(context, 1, 'keys list takes exactly one API name')[0]!));
    case 'revoke': {
      const [apiName, keyId] = args(context, 2, 'keys revoke takes an API name and a key id');
      return reportAdmin(await admin.revokeKey(apiName!, keyId!), () => ({ apiName, keyId, state: 'revoked' }));
    }
    default:
      throw new UsageError(`give one of: admin keys ${KEY_SUBCOMMANDS.join(', ')}`);
  }
}

async function audit(context: Context): Promise<number> {
  args(context, 0, 'audit takes no arguments');
  const { limit, before } = context.options;
  if (limit !== undefined && !/^\d+$/.test(limit)) throw new UsageError('--limit takes a whole number');
  if (before !== undefined && !/^\d+$/.test(before)) throw new UsageError('--before takes a whole number');
  return reportAdmin(
    await context.admin().audit({
      ...(limit === undefined ? {} : { limit: Number(limit) }),
      ...(before === undefined ? {} : { before: Number(before) }),
    }),
  );
}

async function run(context: Context): Promise<number> {
  const [group, sub, ...rest] = context.args;
  const inner = { ...context, args: group === 'audit' ? [sub, ...rest].filter((a) => a !== undefined) : rest };
  switch (group) {
    case 'accounts':
      return accounts(inner, sub);
    case 'keys':
      return keys(inner, sub);
    case 'audit':
      return audit(inner);
    default:
      throw new UsageError('give one of: admin accounts, admin keys, admin audit');
  }
}

export const admin: Command = {
  name: 'admin',
  usage: 'admin <accounts|keys|audit> <sub-command> [arguments]',
  summary: 'the operator API: accounts, their API keys and the audit log',
  details: `The operator API (/admin/v1/) on the service's admin port (PARCEL_ADMIN_PORT, default 9080),
with an operator's token (PARCEL_ADMIN_TOKEN).

  admin accounts create <api-name> [settings]  a new account; prints it and its first key,
                                               whose secret is shown this once
  admin accounts list                          every account
  admin accounts show <api-name>               one account
  admin accounts update <api-name> <settings>  change the settings given
  admin accounts disable|enable <api-name>     refuse the account on both interfaces, or no longer
  admin keys issue <api-name>                  a new key, its secret printed once (two active at most)
  admin keys list <api-name>                   the keys, masked, with their state and last use
  admin keys revoke <api-name> <key-id>        the key signs no more
  admin audit [--limit <n>] [--before <seq>]   the audit log, newest first; "next" is the
                                               --before of the older page

Settings (create and update):
  --client-id <id>             create: the id the account's data is kept under (default: the API name)
  --weight-unit <kg|g|lb>      the unit of the account's weights (default kg)
  --service-types <A,B,...>    the service types it may order, comma-separated; "" for every type
  --can-cancel <true|false>    it may cancel orders (default false)
  --batch-create <true|false>  batch create for this account; update: "default" for the service's own
  --rate-limit <n>             requests per second; update: "default" for the service's own
  --retention-days <n>         days personal data is kept; update: "default" for the service's own

Options:
  --admin-url <url>      the operator API (env PARCEL_ADMIN_URL; default http://127.0.0.1:9080)
  --admin-token <token>  an operator's token (env PARCEL_ADMIN_TOKEN; of name:token pairs, the first)
  --limit <n>            audit: how many entries (1 to 500; default 50)
  --before <seq>         audit: entries older than this one (the "next" of the page before)

The operator API's failures are problem documents: one JSON line on stderr,
{"error": {kind, status, message, problem, body, attempts}}. Exit 1 when it refused the request
(400 invalid, 404 no such account or key, 409 exists or too many keys, 422 unknown service type);
3 for a wrong token (401), a lockout (429), a server error or no answer.`,
  options: [
    'admin-url',
    'admin-token',
    'client-id',
    'weight-unit',
    'service-types',
    'can-cancel',
    'batch-create',
    'rate-limit',
    'retention-days',
    'limit',
    'before',
  ],
  run,
};
