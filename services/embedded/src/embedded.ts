/**
 * The embedded composition root: gateway, order and tracking services in one process, on SQLite
 * (node:sqlite) and the in-process bus. The only place besides the distributed roots that imports adapters.
 */
import { mkdirSync } from 'node:fs';
import type { Server } from 'node:http';
import path from 'node:path';
import pino from 'pino';
import type { Logger } from 'pino';
import { createParcelProjector, randomIds } from '@parcel/application';
import type { Ids } from '@parcel/application';
import { createInProcessBus } from '@parcel/bus';
import type { Settings } from '@parcel/config';
import { systemClock } from '@parcel/domain';
import type { Clock } from '@parcel/domain';
import { createSqliteEventStore } from '@parcel/eventstore';
import { createGatewayApp } from '@parcel/gateway';
import { createOrderService } from '@parcel/order';
import { createSqliteProjectionStore } from '@parcel/projections';
import { loadAccounts, loadReferenceData } from '@parcel/reference-data';
import { createTrackingService } from '@parcel/tracking';

export interface EmbeddedOptions {
  settings: Settings;
  clock?: Clock;
  ids?: Ids;
  log?: Logger;
}

export interface EmbeddedStack {
  url: string;
  server: Server;
  /** Resolves once the asynchronous projector has handled every committed event. */
  caughtUp(): Promise<void>;
  stop(): Promise<void>;
}

export async function startEmbedded(options: EmbeddedOptions): Promise<EmbeddedStack> {
  const { settings } = options;
  const clock = options.clock ?? systemClock;
  const ids = options.ids ?? randomIds;
  const log = options.log ?? pino({ level: settings.logLevel });
  const onProjectionError = (err: unknown) => log.error({ err }, 'inline projection failed; the subscription will repair it');

  mkdirSync(settings.dataDir, { recursive: true });
  const eventStore = createSqliteEventStore({ file: path.join(settings.dataDir, 'events.db'), durability: settings.durability });
  const projections = createSqliteProjectionStore({ file: path.join(settings.dataDir, 'projections.db') });
  const bus = createInProcessBus();
  const ref = loadReferenceData(settings.referenceDir);
  const accounts = loadAccounts(settings.accountsFile);
  const projector = createParcelProjector({ eventStore, views: projections.parcels });

  const order = createOrderService({ eventStore, projector, bus, clock, ids, onProjectionError });
  const tracking = createTrackingService({ eventStore, projector, bus, clock });
  await order.start();
  await tracking.start();

  const app = createGatewayApp({
    bus,
    projections,
    accounts,
    ref,
    clock,
    log,
    ready: () => eventStore.ping(),
    config: {
      tokenTtlS: settings.tokenTtlS,
      commandTimeoutMs: settings.commandTimeoutMs,
      genericErrorA: settings.genericErrorA,
      rateLimitPerSecond: settings.rateLimitPerSecond,
      rateLimitBurst: settings.rateLimitBurst,
      batchCreate: settings.batchCreate,
    },
  });
  const server = await new Promise<Server>((resolve, reject) => {
    const s = app.listen(settings.port, settings.host, () => resolve(s));
    s.once('error', reject);
  });
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : settings.port;
  log.info({ port, dataDir: settings.dataDir }, 'parcel service (embedded) listening');

  return {
    url: `http://127.0.0.1:${port}`,
    server,
    caughtUp: () => tracking.caughtUp(),
    async stop() {
      await new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeAllConnections();
      await tracking.stop();
      await order.stop();
      await bus.close();
      await projections.close();
      await eventStore.close();
    },
  };
}
