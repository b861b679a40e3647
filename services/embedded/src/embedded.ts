/**
 * The embedded composition root: gateway, order and tracking services in one process, on SQLite
 * (node:sqlite) and the in-process bus. The only place besides the distributed roots that imports adapters.
 */
import { existsSync, mkdirSync } from 'node:fs';
import type { Server } from 'node:http';
import path from 'node:path';
import pino from 'pino';
import type { Logger } from 'pino';
import {
  keyedIds,
  personalDataShredder,
  randomIds,
  sealFormerEvents,
  sealingEventStore,
} from '@parcel-logistics/application';
import type { Ids } from '@parcel-logistics/application';
import { accountSecrets, openAccountDirectory, seedAccounts } from '@parcel-logistics/accounts';
import { createSqliteAccountStore } from '@parcel-logistics/accounts-sqlite';
import { createInProcessBus } from '@parcel-logistics/bus';
import { createCarrierSandbox } from '@parcel-logistics/carrier-sandbox';
import type { CarrierSandbox } from '@parcel-logistics/carrier-sandbox';
import { createLmxClient, lmxCarrierClients } from '@parcel-logistics/carriers';
import { masterKeyVariables } from '@parcel-logistics/config';
import type { Settings } from '@parcel-logistics/config';
import { withoutPersonalValues } from '@parcel-logistics/contracts';
import { OPERATIONS } from '@parcel-logistics/contracts/api';
import { systemClock } from '@parcel-logistics/domain';
import type { Clock } from '@parcel-logistics/domain';
import { createSqliteEventRewriter, createSqliteEventStore } from '@parcel-logistics/eventstore-sqlite';
import { cachedKeyStore, EMBEDDED_KEY_STORE_FILE, resolveMasterKey } from '@parcel-logistics/keys';
import { createSqliteKeyStore } from '@parcel-logistics/keys/sqlite';
import { clientIdOf, createGatewayApp, createLockout, listenAdmin } from '@parcel-logistics/gateway';
import { createLabelRenderer, createLabelService, loadOnFirstRender } from '@parcel-logistics/label';
import { createOrderService, REGISTRATION_SUBSCRIPTION, retentionSettingsOf } from '@parcel-logistics/order';
import { createSqliteProjectionStore, vacuumSqliteProjections } from '@parcel-logistics/projections-sqlite';
import { loadAccounts, loadReferenceData } from '@parcel-logistics/reference-data';
import {
  createMetrics,
  instrumentParcelStreams,
  loggerOptions,
  meteredHttp,
  startTelemetry,
  tracedHttp,
  watchRegistrationBacklog,
} from '@parcel-logistics/telemetry';
import type { SpanExporter } from '@parcel-logistics/telemetry';
import { createTrackingService } from '@parcel-logistics/tracking';
import { createWebhookService } from '@parcel-logistics/webhook';
import {
  createSqliteWebhookDeliveries,
  createSqliteWebhookStore,
  rewriteSqliteDeliveryBodies,
} from '@parcel-logistics/webhooks-sqlite';

export interface EmbeddedOptions {
  settings: Settings;
  clock?: Clock;
  ids?: Ids;
  log?: Logger;
  /** Receives every span as it ends, instead of the OTLP exporter the environment may name (for tests). */
  spanExporter?: SpanExporter;
}

export interface EmbeddedStack {
  url: string;
  /** The operator API's address, when PARCEL_ADMIN_TOKEN turns it on. */
  adminUrl: string | undefined;
  /** The LMX carrier's address (the in-process sandbox unless PARCEL_LMX_URL names another). */
  lmxUrl: string;
  /** The in-process LMX sandbox, when this stack started one. */
  sandbox: CarrierSandbox | undefined;
  server: Server;
  /** Resolves once the asynchronous projector has handled every committed event. */
  caughtUp(): Promise<void>;
  stop(): Promise<void>;
}

export async function startEmbedded(options: EmbeddedOptions): Promise<EmbeddedStack> {
  const { settings } = options;
  const telemetry = startTelemetry({
    serviceName: 'parcel-embedded',
    ...(options.spanExporter ? { exporter: options.spanExporter } : {}),
  });
  const clock = options.clock ?? systemClock;
  const log = options.log ?? pino(loggerOptions({ level: settings.logLevel }));
  const onProjectionError = (err: unknown) =>
    log.error({ err }, 'inline projection failed; the subscription will repair it');

  // One registry for the whole process, served by its gateway as GET /metrics.
  const metrics = createMetrics();
  watchRegistrationBacklog(metrics, REGISTRATION_SUBSCRIPTION);

  mkdirSync(settings.dataDir, { recursive: true });
  // The personal data's keys: their own file beside the events, wrapped by the master key
  // (generated into the data directory, with a warning, when none is configured).
  const masterKey = await resolveMasterKey({
    wiring: 'embedded',
    dataDir: settings.dataDir,
    env: masterKeyVariables(settings),
    logger: log,
  });
  const keys = createSqliteKeyStore({
    file: path.join(settings.dataDir, EMBEDDED_KEY_STORE_FILE),
    masterKey,
    durability: settings.durability,
  });
  // A data directory written before personal values were sealed is sealed in place, once.
  const rewriter = createSqliteEventRewriter({ file: path.join(settings.dataDir, 'events.db') });
  try {
    const sealed = await sealFormerEvents(rewriter, keys);
    if (sealed > 0) {
      // The views of those events were written before they zeroed what they overwrite.
      const views = path.join(settings.dataDir, 'projections.db');
      if (existsSync(views)) vacuumSqliteProjections(views);
      // So were the webhook bodies of the delivery log: their personal values are blanked.
      const deliveryLog = path.join(settings.dataDir, 'webhooks.db');
      if (existsSync(deliveryLog)) rewriteSqliteDeliveryBodies(deliveryLog, withoutPersonalValues);
      log.info({ sealed }, 'the personal values of events written before sealing are sealed');
    }
  } finally {
    await rewriter.close();
  }
  const keyCache = cachedKeyStore(keys);
  const sqlite = sealingEventStore(
    createSqliteEventStore({
      file: path.join(settings.dataDir, 'events.db'),
      durability: settings.durability,
      onCommit: metrics.onCommit,
    }),
    keyCache,
  );
  // Tests give their own ids; otherwise new parcels' keys are made ahead, many in one write.
  const ids =
    options.ids ??
    keyedIds(randomIds, keyCache, { onError: (err) => log.warn({ err }, 'keys made ahead failed; made per order') });
  const projections = createSqliteProjectionStore({ file: path.join(settings.dataDir, 'projections.db') });
  const webhooks = createSqliteWebhookStore({ file: path.join(settings.dataDir, 'webhooks.db') });
  const deliveries = createSqliteWebhookDeliveries({ file: path.join(settings.dataDir, 'webhooks.db') });
  const { bus, eventStore, projector } = instrumentParcelStreams(metrics, {
    bus: createInProcessBus(),
    system: 'in-process',
    eventStore: sqlite,
    views: projections.parcels,
  });
  const ref = loadReferenceData(settings.referenceDir);
  // The accounts: in their own file, their keys sealed by the master key; the accounts file seeds it on first start.
  const accountStore = createSqliteAccountStore({ file: path.join(settings.dataDir, 'accounts.db') });
  const secrets = accountSecrets(masterKey);
  if (await seedAccounts({ store: accountStore, secrets, clock }, loadAccounts(settings.accountsFile)))
    log.info({ file: settings.accountsFile }, 'accounts imported from the accounts file');
  const accounts = await openAccountDirectory({
    store: accountStore,
    secrets,
    onError: (err) => log.error({ err }, 'reading the accounts failed; the last ones read still serve'),
  });

  const common = { eventStore, projector, bus, clock, ids, ref, views: projections.parcels, onProjectionError };
  // No downstream topics: nothing outside this process can subscribe to its in-process bus.
  const tracking = createTrackingService({
    ...common,
    renderTimeoutMs: settings.commandTimeoutMs,
    publishDownstream: false,
  });
  await tracking.start();
  // Fonts and PDF libraries are loaded by the first label request: a process that renders none keeps about 100 MB less.
  const label = createLabelService({
    bus,
    views: projections.parcels,
    renderer: loadOnFirstRender(() => createLabelRenderer({ ref })),
  });
  await label.start();
  // Real time, whatever the clock of the rest: receivers check webhook-timestamp against their own clocks.
  // One lease owner name across restarts: a process killed during delivery leaves leases that its successor holds at once.
  const webhook = createWebhookService({
    eventStore,
    endpoints: webhooks,
    deliveries,
    clock: systemClock,
    log,
    config: settings.webhooks,
    owner: 'embedded',
    paused: accounts.isDisabled,
  });
  await webhook.start();

  const lockout = createLockout(clock);
  const app = createGatewayApp(
    {
      bus,
      projections,
      webhooks,
      webhookDeliveries: deliveries,
      accounts,
      ref,
      clock,
      log,
      ready: () => eventStore.ping(),
      config: settings,
      middleware: [tracedHttp({ clientId: clientIdOf, log }), meteredHttp(metrics, { routes: OPERATIONS })],
      metrics,
    },
    lockout,
  );
  const admin = await listenAdmin(
    {
      store: accountStore,
      secrets,
      accounts,
      ref,
      clock,
      log,
      tokens: settings.admin.tokens,
      lockout,
      trustProxy: settings.trustProxy,
    },
    settings.admin,
  );
  const server = await new Promise<Server>((resolve, reject) => {
    const s = app.listen(settings.port, settings.host, () => resolve(s));
    s.once('error', reject);
  });
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : settings.port;
  const url = `http://127.0.0.1:${port}`;

  // The LMX sandbox is a carrier of its own, over HTTP; it calls the gateway back with tracking events.
  let sandbox: CarrierSandbox | undefined;
  let lmxUrl = settings.carriers.lmxUrl;
  if (!lmxUrl) {
    sandbox = createCarrierSandbox({ callbackUrl: url, secret: ref.carriers.get('LMX')?.eventSecret ?? '' });
    lmxUrl = (await sandbox.listen(settings.carriers.sandboxPort, '127.0.0.1')).url;
  }
  const lmx = createLmxClient({ baseUrl: lmxUrl });
  const carriers = lmxCarrierClients(ref, lmx);
  const order = createOrderService({
    ...common,
    manifests: projections.manifests,
    carriers,
    registrationRetryDelayMs: settings.carriers.retryDelayMs,
    personalData: personalDataShredder(sqlite, projections),
    idempotency: projections.idempotency,
    retention: retentionSettingsOf(settings.personalData),
    accountRetention: accounts.retentionDays,
    onRetentionSweep: (sweep) => log.info(sweep, 'retention sweep done'),
    onRetentionError: (err, trackingNumber) =>
      log.error({ err, trackingNumber }, 'retention sweep failed; the next sweep tries again'),
  });
  await order.start();
  log.info({ port, dataDir: settings.dataDir, lmxUrl }, 'parcel service (embedded) listening');

  return {
    url,
    adminUrl: admin?.url,
    lmxUrl,
    sandbox,
    server,
    caughtUp: async () => {
      await tracking.caughtUp();
      await order.caughtUp();
      await webhook.caughtUp();
    },
    async stop() {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeIdleConnections();
      await closed;
      await admin?.close();
      await order.stop();
      await sandbox?.close();
      await label.stop();
      await tracking.stop();
      await webhook.stop();
      await bus.close();
      await projections.close();
      await webhooks.close();
      await deliveries.close();
      await accounts.stop();
      await accountStore.close();
      await eventStore.close();
      await telemetry.shutdown();
    },
  };
}
