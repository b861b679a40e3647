/**
 * Settings from the environment, read once by each composition root: the one loader of both
 * wirings. docs/configuration.md lists every variable read here.
 */
import path from 'node:path';
import { A } from '@parcel-logistics/contracts';
import { DEFAULT_REFERENCE_DIR, DEMO_ACCOUNTS_FILE } from '@parcel-logistics/reference-data';
import { loadDistributed, type DistributedSettings } from './distributed.ts';
import { integer, integers, oneOf, SettingsError } from './read.ts';

export { SettingsError } from './read.ts';

const MINUTE_MS = 60_000;
const HOUR_MS = 60 * MINUTE_MS;
const DAY_MS = 24 * HOUR_MS;
/** 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h: about 27.6 h of retries (docs/webhooks.md). */
const WEBHOOK_RETRY_SCHEDULE_MS = [
  5000,
  5 * MINUTE_MS,
  30 * MINUTE_MS,
  2 * HOUR_MS,
  5 * HOUR_MS,
  10 * HOUR_MS,
  10 * HOUR_MS,
];
export type { DistributedSettings } from './distributed.ts';

export interface Settings {
  port: number;
  host: string;
  dataDir: string;
  accountsFile: string;
  referenceDir: string;
  tokenTtlS: number;
  commandTimeoutMs: number;
  genericErrorA: string;
  rateLimitPerSecond: number;
  rateLimitBurst: number;
  /** Public tracking page requests per minute per client address; 0 turns the limit off. */
  trackRateLimitPerMinute: number;
  batchCreate: { enabled: boolean; max: number };
  /**
   * Express's `trust proxy` (PARCEL_TRUST_PROXY): false, a number of proxy hops, or addresses and
   * subnets (`loopback`, `10.0.0.0/8`, …) whose X-Forwarded-For is believed.
   */
  trustProxy: boolean | number | string;
  /** The operator API (docs/operations.md): its tokens (off without any), and its own port. */
  admin: { tokens: { name: string; token: string }[]; port: number; host: string };
  /** How long the gateway keeps an Idempotency-Key's answer. */
  idempotencyTtlS: number;
  /** `full` syncs every commit to disk; `normal` survives a process crash but not a power cut. */
  durability: 'full' | 'normal';
  logLevel: string;
  webhooks: {
    /** The cap on webhook endpoints per account. */
    maxEndpoints: number;
    /** Allow private, loopback and link-local destinations (tests, private networks on purpose). */
    allowPrivate: boolean;
    /** Delay before each retry of a failed delivery; its length is the number of retries. */
    retryScheduleMs: number[];
    timeoutMs: number;
    /** An endpoint failing this long is disabled. */
    disableAfterMs: number;
    pollIntervalMs: number;
    /** How long a webhook instance's claim on an endpoint's queue lasts (renewed before each attempt). */
    leaseMs: number;
    /** Settled messages, attempts and finished replays older than this are pruned. */
    retentionMs: number;
    /** How far back a replay may start. */
    replayMaxAgeMs: number;
  };
  /** Personal data: the key-encryption key, retention and the downstream topic that carries it in clear (docs/personal-data.md). */
  personalData: {
    /** Base64 of 32 bytes, from PARCEL_MASTER_KEY; or the file PARCEL_MASTER_KEY_FILE holds it in. */
    masterKey: string | undefined;
    masterKeyFile: string | undefined;
    /** Days kept after the parcel's final status (delivered, returned, cancelled); 0: erased at the next sweep. */
    retentionDays: number;
    /** Days kept after creation, final status or not. */
    maxDays: number;
    /** How often the retention sweep runs. */
    sweepMs: number;
    /** Publish `parcel.events.v1` too, whose personal values cannot be erased from its consumers. */
    downstreamV1: boolean;
  };
  carriers: {
    /** The LMX carrier's base URL; unset: the embedded stack starts the LMX sandbox itself. */
    lmxUrl: string | undefined;
    sandboxPort: number;
    /** First delay before retrying a failed carrier registration (doubles per attempt, capped at 30 s). */
    retryDelayMs: number;
  };
}

/** The webhook settings. A claim must outlive the attempt it was renewed for, or a second instance could send the same queue meanwhile. */
function webhookSettings(env: NodeJS.ProcessEnv): Settings['webhooks'] {
  const timeoutMs = integer(env, 'PARCEL_WEBHOOK_TIMEOUT_MS', 10_000, 1);
  const leaseMs = integer(env, 'PARCEL_WEBHOOK_LEASE_MS', 30_000, 1);
  if (leaseMs <= timeoutMs)
    throw new SettingsError(
      `PARCEL_WEBHOOK_LEASE_MS must be longer than PARCEL_WEBHOOK_TIMEOUT_MS (${timeoutMs}), got "${leaseMs}"`,
    );
  return {
    maxEndpoints: integer(env, 'PARCEL_WEBHOOK_MAX_ENDPOINTS', 10, 1),
    allowPrivate: oneOf(env, 'PARCEL_WEBHOOK_ALLOW_PRIVATE', ['on', 'off'], 'off') === 'on',
    retryScheduleMs: integers(env, 'PARCEL_WEBHOOK_RETRY_SCHEDULE_MS', WEBHOOK_RETRY_SCHEDULE_MS, 0),
    timeoutMs,
    disableAfterMs: integer(env, 'PARCEL_WEBHOOK_DISABLE_AFTER_MS', 5 * DAY_MS, 1),
    pollIntervalMs: integer(env, 'PARCEL_WEBHOOK_POLL_MS', 250, 1),
    leaseMs,
    retentionMs: integer(env, 'PARCEL_WEBHOOK_RETENTION_MS', 30 * DAY_MS, 1),
    replayMaxAgeMs: integer(env, 'PARCEL_WEBHOOK_REPLAY_MAX_AGE_MS', 30 * DAY_MS, 1),
  };
}

/** PARCEL_TRUST_PROXY: unset or `off` trusts no proxy; a whole number counts hops; anything else names addresses. */
function trustProxy(value: string | undefined): boolean | number | string {
  if (!value || value === 'off') return false;
  return /^\d+$/.test(value) ? Number(value) : value;
}

/**
 * PARCEL_ADMIN_TOKEN: one token, or several `name:token` pairs separated by commas, so the audit
 * log says which operator acted (a lone token acts as `operator`). Each at least 32 characters.
 */
function adminTokens(value: string | undefined): { name: string; token: string }[] {
  if (!value) return [];
  return value.split(',').map((part) => {
    const pair = /^([A-Za-z0-9._-]{1,64}):(.+)$/.exec(part.trim());
    const [name, token] = pair ? [pair[1]!, pair[2]!] : ['operator', part.trim()];
    if (token.length < 32)
      throw new SettingsError('PARCEL_ADMIN_TOKEN: each token must be at least 32 characters (`openssl rand -hex 32`)');
    return { name, token };
  });
}

/** The master key's settings as the variables that name them, for `resolveMasterKey` of @parcel-logistics/keys. */
export const masterKeyVariables = ({ personalData }: Pick<Settings, 'personalData'>): Record<string, string> => ({
  ...(personalData.masterKey ? { PARCEL_MASTER_KEY: personalData.masterKey } : {}),
  ...(personalData.masterKeyFile ? { PARCEL_MASTER_KEY_FILE: personalData.masterKeyFile } : {}),
});

/** The embedded wiring's settings; with `service` (the distributed wiring), its `distributed` ones too. */
export function loadSettings(env?: NodeJS.ProcessEnv): Settings;
export function loadSettings(env: NodeJS.ProcessEnv, service: string): Settings & { distributed: DistributedSettings };
export function loadSettings(
  env: NodeJS.ProcessEnv = process.env,
  service?: string,
): Settings & { distributed?: DistributedSettings } {
  const settings: Settings = {
    port: integer(env, 'PORT', 8080, 0),
    host: env.HOST || '0.0.0.0',
    dataDir: path.resolve(env.PARCEL_DATA_DIR || './data'),
    accountsFile: env.PARCEL_ACCOUNTS_FILE || DEMO_ACCOUNTS_FILE,
    referenceDir: env.PARCEL_REFERENCE_DIR || DEFAULT_REFERENCE_DIR,
    tokenTtlS: integer(env, 'PARCEL_TOKEN_TTL_S', 24 * 60 * 60, 1),
    commandTimeoutMs: integer(env, 'PARCEL_COMMAND_TIMEOUT_MS', 10_000, 1),
    genericErrorA: A.genericError(env.PARCEL_SUPPORT_EMAIL || 'support@parcel.example'),
    rateLimitPerSecond: integer(env, 'PARCEL_RATE_LIMIT_RPS', 1000, 0),
    rateLimitBurst: integer(env, 'PARCEL_RATE_LIMIT_BURST', 2000, 1),
    trackRateLimitPerMinute: integer(env, 'PARCEL_TRACK_RATE_LIMIT_PER_MIN', 60, 0),
    batchCreate: {
      enabled: oneOf(env, 'PARCEL_BATCH_CREATE', ['on', 'off'], 'off') === 'on',
      max: integer(env, 'PARCEL_BATCH_MAX', 50, 1),
    },
    idempotencyTtlS: integer(env, 'PARCEL_IDEMPOTENCY_TTL_S', 24 * 60 * 60, 1),
    trustProxy: trustProxy(env.PARCEL_TRUST_PROXY),
    admin: {
      tokens: adminTokens(env.PARCEL_ADMIN_TOKEN),
      port: integer(env, 'PARCEL_ADMIN_PORT', 9080, 0),
      host: env.PARCEL_ADMIN_HOST || '127.0.0.1',
    },
    durability: oneOf(env, 'PARCEL_DURABILITY', ['full', 'normal'], 'full'),
    logLevel: env.LOG_LEVEL || 'info',
    webhooks: webhookSettings(env),
    personalData: {
      masterKey: env.PARCEL_MASTER_KEY || undefined,
      masterKeyFile: env.PARCEL_MASTER_KEY_FILE || undefined,
      retentionDays: integer(env, 'PARCEL_PERSONAL_DATA_RETENTION_DAYS', 90, 0),
      maxDays: integer(env, 'PARCEL_PERSONAL_DATA_MAX_DAYS', 365, 1),
      sweepMs: integer(env, 'PARCEL_RETENTION_SWEEP_MS', HOUR_MS, 1),
      downstreamV1: oneOf(env, 'PARCEL_DOWNSTREAM_V1', ['on', 'off'], 'off') === 'on',
    },
    carriers: {
      lmxUrl: env.PARCEL_LMX_URL || undefined,
      sandboxPort: integer(env, 'PARCEL_SANDBOX_PORT', 8090, 0),
      retryDelayMs: integer(env, 'PARCEL_CARRIER_RETRY_MS', 1000, 1),
    },
  };
  return service === undefined ? settings : { ...settings, distributed: loadDistributed(env, service) };
}
