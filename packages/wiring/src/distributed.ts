/**
 * Shared pieces of the distributed composition roots (one process per service): the Kafka bus,
 * the event store (PostgreSQL, or KurrentDB in the compose stack), the MongoDB projections and the
 * webhook endpoints and deliveries (PostgreSQL),
 * from the settings `loadSettings(env, service)` of @parcel-logistics/config reads. Only composition roots
 * import this module.
 */
import type { Logger } from 'pino';
import { accountSecrets, openAccountDirectory, seedAccounts } from '@parcel-logistics/accounts';
import type { AccountDirectory, AccountSecrets, AccountStore } from '@parcel-logistics/accounts';
import { createPostgresAccountStore } from '@parcel-logistics/accounts-postgres';
import { systemClock } from '@parcel-logistics/domain';
import { loadAccounts } from '@parcel-logistics/reference-data';
import type { Bus } from '@parcel-logistics/bus';
import { createKafkaBus } from '@parcel-logistics/bus-kafka';
import { masterKeyVariables, SettingsError } from '@parcel-logistics/config';
import type { DistributedSettings, Settings } from '@parcel-logistics/config';
import { sealFormerEvents, sealingEventStore } from '@parcel-logistics/application';
import type { SealingEventStore } from '@parcel-logistics/application';
import type { EventStore } from '@parcel-logistics/eventstore';
import { cachedKeyStore, resolveMasterKey } from '@parcel-logistics/keys';
import type { CachedKeyStore } from '@parcel-logistics/keys';
import { createPostgresKeyStore } from '@parcel-logistics/keys/postgres';
import { createPostgresEventRewriter, createPostgresEventStore } from '@parcel-logistics/eventstore-postgres';
import type { ProjectionStore } from '@parcel-logistics/projections';
import { createMongoProjectionStore } from '@parcel-logistics/projections-mongo';
import type { WebhookDeliveries, WebhookStore } from '@parcel-logistics/webhooks';
import { createPostgresWebhookDeliveries, createPostgresWebhookStore } from '@parcel-logistics/webhooks-postgres';

export async function connectBus(settings: DistributedSettings, log: Logger): Promise<Bus> {
  const options = {
    brokers: settings.kafkaBrokers,
    clientId: settings.instanceId,
    instanceId: settings.instanceId,
    logLevel: 'warn' as const,
    logger: log.child({ component: 'bus' }),
    sessionTimeoutMs: settings.kafkaSessionTimeoutMs,
    lingerMs: settings.kafkaLingerMs,
  };
  if (settings.kafkaClient === 'kafkajs') return createKafkaBus(options);
  // An ES module of its own, loaded only where it is used.
  const { createPlatformaticKafkaBus } = await import('@parcel-logistics/bus-kafka/platformatic');
  return createPlatformaticKafkaBus(options);
}

/** The settings a distributed composition root reads (`loadSettings(env, service)`). */
export type ServiceSettings = Settings & { distributed: DistributedSettings };

/**
 * The personal data's keys (docs/personal-data.md): in PostgreSQL in their own schema
 * (`PARCEL_PG_KEYS_SCHEMA`), whatever the event store, wrapped by the master key; the service
 * refuses to start without one. Cached for a short while: an erasure made by another process
 * evicts the key as its event passes, or at the latest when the entry ages out.
 */
export async function connectKeys(settings: ServiceSettings, log: Logger): Promise<CachedKeyStore> {
  const { distributed } = settings;
  if (!distributed.pgUrl)
    throw new SettingsError(
      'PARCEL_PG_URL is required by the key store of the personal data, whatever the event store',
    );
  const masterKey = await resolveMasterKey({ wiring: 'distributed', env: masterKeyVariables(settings), logger: log });
  const store = await createPostgresKeyStore({
    connectionString: distributed.pgUrl,
    schema: distributed.pgKeysSchema,
    masterKey,
  });
  return cachedKeyStore(store, { maxAgeMs: 10_000 });
}

/**
 * The event store, personal values sealed with the keys of `connectKeys` on their way in and
 * opened on their way out. `onCommit`: told the size of each group commit (PostgreSQL; KurrentDB
 * has none), for metrics.
 */
export async function connectEventStore(
  settings: ServiceSettings,
  log: Logger,
  hooks: { onCommit?: (groupSize: number) => void; sealFormerEvents?: boolean } = {},
): Promise<SealingEventStore> {
  const keys = await connectKeys(settings, log);
  const { sealFormerEvents: migrate, ...adapterHooks } = hooks;
  if (migrate) await sealFormer(settings.distributed, keys, log);
  return sealingEventStore(await connectAdapter(settings.distributed, log, adapterHooks), keys);
}

/**
 * The one-time sealing of events written before personal values were sealed (docs/personal-data.md),
 * run by the order service before it serves. PostgreSQL only: KurrentDB's events cannot be rewritten.
 */
async function sealFormer(settings: DistributedSettings, keys: CachedKeyStore, log: Logger): Promise<void> {
  if (settings.eventStore !== 'postgres') return;
  const rewriter = await createPostgresEventRewriter({ connectionString: settings.pgUrl, schema: settings.pgSchema });
  try {
    const sealed = await sealFormerEvents(rewriter, keys);
    if (sealed > 0) log.info({ sealed }, 'the personal values of events written before sealing are sealed');
  } finally {
    await rewriter.close();
  }
}

async function connectAdapter(
  settings: DistributedSettings,
  log: Logger,
  hooks: { onCommit?: (groupSize: number) => void },
): Promise<EventStore> {
  const onHandlerError = (
    error: unknown,
    event: { id: string; streamName: string },
    attempt: number,
    subscriptionId: string,
  ) =>
    log.warn(
      { err: error, eventId: event.id, stream: event.streamName, attempt, subscriptionId },
      'subscription handler failed; retrying',
    );
  if (settings.eventStore === 'kurrentdb') {
    // Loaded only when chosen: the client brings gRPC and a native addon.
    const { createKurrentDbEventStore } = await import('@parcel-logistics/eventstore-kurrentdb');
    return createKurrentDbEventStore({ connectionString: settings.kurrentDbUrl, onHandlerError });
  }
  return createPostgresEventStore({
    connectionString: settings.pgUrl,
    schema: settings.pgSchema,
    onHandlerError,
    ...hooks,
  });
}

/**
 * The views on MongoDB. A request waits at most 3 s for a server (unless the URL says otherwise),
 * but the first connection goes on trying for 30 s: a process started beside a MongoDB that is
 * still starting, or too busy to answer in time, waits for it instead of exiting.
 */
export function connectProjections(settings: DistributedSettings, log: Logger): Promise<ProjectionStore> {
  const url = new URL(settings.mongoUrl);
  if (!url.searchParams.has('serverSelectionTimeoutMS')) url.searchParams.set('serverSelectionTimeoutMS', '3000');
  return createMongoProjectionStore({
    url: url.toString(),
    dbName: settings.mongoDb,
    connectWithinMs: 30_000,
    onConnectRetry: (error, attempt) =>
      log.warn({ err: error, attempt }, 'MongoDB did not answer the first connection; trying again'),
  });
}

/**
 * Webhook endpoints (account state, not parcel events) and their delivery queue and leases, in
 * PostgreSQL beside the events (`PARCEL_PG_SCHEMA`): shared by the gateways and the webhook instances.
 */
export async function connectWebhooks(
  settings: DistributedSettings,
): Promise<{ endpoints: WebhookStore; deliveries: WebhookDeliveries }> {
  if (!settings.pgUrl)
    throw new SettingsError(
      'PARCEL_PG_URL is required by the webhook store (gateway and webhook service), whatever the event store',
    );
  const options = { connectionString: settings.pgUrl, schema: settings.pgSchema };
  const [endpoints, deliveries] = await Promise.all([
    createPostgresWebhookStore(options),
    createPostgresWebhookDeliveries(options),
  ]);
  return { endpoints, deliveries };
}

export interface ConnectedAccounts {
  store: AccountStore;
  /** The API keys' seal, under the master key (the gateway's; a webhook instance needs none). */
  secrets: AccountSecrets | undefined;
  /** The accounts as this process serves them, read again within a second of any change. */
  directory: AccountDirectory;
  close(): Promise<void>;
}

/**
 * The accounts (docs/operations.md): in PostgreSQL beside the events (`PARCEL_PG_SCHEMA`), shared
 * by every gateway, their keys sealed under the master key. A gateway (`keys: true`) imports the
 * accounts file on the store's first start and opens every active key once; a webhook instance
 * reads only which accounts are disabled.
 */
export async function connectAccounts(
  settings: ServiceSettings,
  log: Logger,
  options: { keys: boolean },
): Promise<ConnectedAccounts> {
  const { distributed } = settings;
  if (!distributed.pgUrl)
    throw new SettingsError('PARCEL_PG_URL is required by the account store (gateway and webhook service)');
  const store = await createPostgresAccountStore({ connectionString: distributed.pgUrl, schema: distributed.pgSchema });
  try {
    let secrets: AccountSecrets | undefined;
    if (options.keys) {
      const masterKey = await resolveMasterKey({
        wiring: 'distributed',
        env: masterKeyVariables(settings),
        logger: log,
      });
      secrets = accountSecrets(masterKey);
      if (await seedAccounts({ store, secrets, clock: systemClock }, loadAccounts(settings.accountsFile)))
        log.info({ file: settings.accountsFile }, 'accounts imported from the accounts file');
    }
    const directory = await openAccountDirectory({
      store,
      ...(secrets ? { secrets } : {}),
      onError: (err) => log.error({ err }, 'reading the accounts failed; the last ones read still serve'),
    });
    return {
      store,
      secrets,
      directory,
      close: async () => {
        await directory.stop();
        await store.close();
      },
    };
  } catch (error) {
    await store.close();
    throw error;
  }
}
