/** Distributed composition root of the gateway: Kafka bus, MongoDB projections, webhook endpoints on PostgreSQL, HTTP on PORT. */
import pino from 'pino';
import { loadSettings } from '@parcel-logistics/config';
import { OPERATIONS } from '@parcel-logistics/contracts/api';
import { systemClock } from '@parcel-logistics/domain';
import { loadReferenceData } from '@parcel-logistics/reference-data';
import {
  createMetrics,
  instrumentBus,
  loggerOptions,
  meteredHttp,
  startTelemetry,
  tracedHttp,
} from '@parcel-logistics/telemetry';
import {
  connectAccounts,
  connectBus,
  connectProjections,
  connectWebhooks,
  listeningPort,
  stopOnSignals,
} from '@parcel-logistics/wiring';
import { createGatewayApp, listenAdmin } from './app.ts';
import { createLockout } from './auth/lockout.ts';
import { clientIdOf } from './context.ts';

const telemetry = startTelemetry({ serviceName: 'parcel-gateway' });

const settings = loadSettings(process.env, 'gateway');
const { distributed } = settings;
const log = pino(
  loggerOptions({ level: settings.logLevel, base: { service: 'gateway', instance: distributed.instanceId } }),
);
const metrics = createMetrics();
const bus = instrumentBus(await connectBus(distributed, log), metrics, 'kafka');
const [projections, webhooks, accounts] = await Promise.all([
  connectProjections(distributed, log),
  connectWebhooks(distributed),
  connectAccounts(settings, log, { keys: true }),
]);
const ref = loadReferenceData(settings.referenceDir);
const lockout = createLockout(systemClock);
const app = createGatewayApp(
  {
    bus,
    projections,
    webhooks: webhooks.endpoints,
    webhookDeliveries: webhooks.deliveries,
    ready: () => webhooks.deliveries.ping(),
    accounts: accounts.directory,
    ref,
    clock: systemClock,
    log,
    config: settings,
    middleware: [tracedHttp({ clientId: clientIdOf, log }), meteredHttp(metrics, { routes: OPERATIONS })],
    metrics,
  },
  lockout,
);
const admin = await listenAdmin(
  {
    store: accounts.store,
    secrets: accounts.secrets!,
    accounts: accounts.directory,
    ref,
    clock: systemClock,
    log,
    tokens: settings.admin.tokens,
    lockout,
    trustProxy: settings.trustProxy,
  },
  settings.admin,
).catch((error: unknown) => {
  log.fatal({ err: error, port: settings.admin.port }, 'cannot listen for the operator API');
  process.exit(1);
});
// Express 5 hands a failed listen (the port taken) to the callback: without a port the process has no purpose.
const server = app.listen(settings.port, settings.host, (error?: Error) => {
  if (error) {
    log.fatal({ err: error, port: settings.port }, 'cannot listen');
    process.exit(1);
  }
  log.info({ port: listeningPort(server) }, 'listening');
});
stopOnSignals(log, async () => {
  await new Promise<void>((resolve) => {
    server.close(() => resolve());
    server.closeIdleConnections();
  });
  await admin?.close();
  await bus.close();
  await accounts.close();
  await projections.close();
  await webhooks.endpoints.close();
  await webhooks.deliveries.close();
  await telemetry.shutdown();
});
