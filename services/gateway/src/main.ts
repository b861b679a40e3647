/** Distributed composition root of the gateway: Kafka bus, MongoDB projections, HTTP on PORT. */
import pino from 'pino';
import { loadSettings } from '@parcel/config';
import { systemClock } from '@parcel/domain';
import { loadAccounts, loadReferenceData } from '@parcel/reference-data';
import { loggerOptions, startTelemetry, tracedBus, tracedHttp } from '@parcel/telemetry';
import { connectBus, connectProjections, listeningPort, loadDistributedSettings, stopOnSignals } from '@parcel/wiring';
import { createGatewayApp } from './app.ts';
import { gatewayConfig } from './config.ts';
import { clientIdOf } from './context.ts';

const telemetry = startTelemetry({ serviceName: 'parcel-gateway' });

const settings = loadSettings();
const distributed = loadDistributedSettings('gateway');
const log = pino(loggerOptions({ level: settings.logLevel, base: { service: 'gateway', instance: distributed.instanceId } }));
const bus = tracedBus(await connectBus(distributed, log), 'kafka');
const projections = await connectProjections(distributed);
const app = createGatewayApp({
  bus,
  projections,
  accounts: loadAccounts(settings.accountsFile),
  ref: loadReferenceData(settings.referenceDir),
  clock: systemClock,
  log,
  config: gatewayConfig(settings),
  middleware: [tracedHttp({ clientId: clientIdOf, log })],
});
const server = app.listen(settings.port, settings.host, () => log.info({ port: listeningPort(server) }, 'listening'));
stopOnSignals(log, async () => {
  await new Promise<void>((resolve) => {
    server.close(() => resolve());
    server.closeIdleConnections();
  });
  await bus.close();
  await projections.close();
  await telemetry.shutdown();
});
