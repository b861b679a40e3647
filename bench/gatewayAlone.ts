/**
 * The gateway of the embedded stack with nothing behind it, for the foundation benchmark: the same
 * app, middleware, telemetry and in-process bus, but the create-order command is answered at once
 * by a handler that stores nothing. What it serves is what the HTTP tier alone allows
 * (authentication, validation, the bus hop, the spans), before any event is appended.
 * Not a service: only bench/foundation.bench.ts starts it.
 */
import pino from 'pino';
import { createInProcessBus } from '@parcel-logistics/bus';
import { loadSettings } from '@parcel-logistics/config';
import { Topics } from '@parcel-logistics/contracts';
import type { CreateOrderReply } from '@parcel-logistics/contracts';
import { formatSgt, systemClock } from '@parcel-logistics/domain';
import { clientIdOf, createGatewayApp } from '@parcel-logistics/gateway';
import { createSqliteProjectionStore } from '@parcel-logistics/projections-sqlite';
import { fixedDirectory } from '@parcel-logistics/accounts';
import { loadAccounts, loadReferenceData } from '@parcel-logistics/reference-data';
import { loggerOptions, startTelemetry, tracedBus, tracedHttp } from '@parcel-logistics/telemetry';

const settings = loadSettings();
startTelemetry({ serviceName: 'parcel-bench-gateway-alone' });
const log = pino(loggerOptions({ level: settings.logLevel }));
const bus = tracedBus(createInProcessBus(), 'in-process');
let created = 0;
await bus.handleRequests(Topics.orderCommands, async (): Promise<CreateOrderReply> => {
  created += 1;
  return {
    ok: true,
    trackingNumber: `BENCH${String(created).padStart(10, '0')}`,
    createdAt: formatSgt(systemClock.now()),
  };
});
const app = createGatewayApp({
  bus,
  projections: createSqliteProjectionStore({ file: ':memory:' }),
  accounts: fixedDirectory(loadAccounts(settings.accountsFile)),
  ref: loadReferenceData(settings.referenceDir),
  clock: systemClock,
  log,
  config: settings,
  middleware: [tracedHttp({ clientId: clientIdOf, log })],
});
const server = app.listen(settings.port, settings.host);
process.once('SIGTERM', () => server.close(() => process.exit(0)));
