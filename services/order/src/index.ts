import { Topics } from '@parcel-logistics/contracts';
import type { OrderCommands } from '@parcel-logistics/contracts';
import { serveCommands } from '@parcel-logistics/bus';
import type { Bus, Unsubscribe } from '@parcel-logistics/bus';
import type { CarrierClient } from '@parcel-logistics/carriers';
import type { Subscription } from '@parcel-logistics/eventstore';
import type { IdempotencyStore, ManifestStore, ParcelViewStore } from '@parcel-logistics/projections';
import type { ReferenceData } from '@parcel-logistics/reference-data';
import { cancelOrders } from './cancellingOrders/handler.ts';
import { createOrder, settleCreateOrder } from './creatingOrder/handler.ts';
import type { CreateOrderDeps } from './creatingOrder/handler.ts';
import { acceptOrderBatch } from './creatingOrders/handler.ts';
import { startBatchWorker } from './creatingOrders/worker.ts';
import { acceptOrderImport, getOrderImport, recordImportPart } from './importingOrders/handler.ts';
import { startImportWorker } from './importingOrders/worker.ts';
import { createManifest } from './creatingManifest/handler.ts';
import { startManifestWorker } from './creatingManifest/worker.ts';
import { startRegistrationWorker } from './registeringWithCarrier/worker.ts';
import { erasePersonalDataOf } from './erasingPersonalData/handler.ts';
import { startRetentionWorker } from './retainingPersonalData/worker.ts';
import type { RetentionSettings, RetentionSweep } from './retainingPersonalData/worker.ts';
import type { PersonalDataShredder } from '@parcel-logistics/application';

export type OrderServiceDeps = CreateOrderDeps & {
  bus: Bus;
  views: ParcelViewStore;
  /** End-of-day manifests as get-manifest and list-manifests read them (`projections.manifests`). */
  manifests: ManifestStore;
  ref: ReferenceData;
  /** Carrier clients by carrier code (LMX and LMX-PU); carriers absent here take no registrations. */
  carriers: ReadonlyMap<string, CarrierClient>;
  registrationRetryDelayMs?: number;
  pollIntervalMs?: number;
  /** Destroys a parcel's key and wipes the stores' files when its personal data is erased. */
  personalData: PersonalDataShredder;
  /** The gateway's Idempotency-Key records (`projections.idempotency`): an erasure deletes the answers kept of its parcels. */
  idempotency: Pick<IdempotencyStore, 'forgetParcels'>;
  /** The retention sweep's policy and period (both wirings pass `settings.personalData`); absent: no sweep. */
  retention?: RetentionSettings;
  /** The accounts' own retention after the final status (client id → days), read when each sweep runs. */
  accountRetention?: () => ReadonlyMap<string, number>;
  /** An erasure by retention that failed (its parcel stays due), or a sweep that could not run. */
  onRetentionError?: (error: unknown, trackingNumber?: string) => void;
  /** What each retention sweep this instance ran did. */
  onRetentionSweep?: (sweep: RetentionSweep) => void;
};

/** The order service: order commands from the bus; carrier registration, batch creation, imports and manifests from the store's log. */
export function createOrderService(deps: OrderServiceDeps) {
  let unsubscribe: Unsubscribe | undefined;
  let workers: Subscription[] = [];
  let retention: { stop(): Promise<void> } | undefined;

  return {
    async start() {
      unsubscribe = await serveCommands<OrderCommands>(deps.bus, Topics.orderCommands, 'order service', {
        CreateOrder: (payload, meta) => createOrder(deps, payload, meta),
        SettleCreateOrder: (payload) => settleCreateOrder(deps, payload),
        AcceptOrderBatch: (payload, { commandId }) => acceptOrderBatch(deps, payload, commandId),
        RecordImportPart: (payload, { commandId }) => recordImportPart(deps, payload, commandId),
        AcceptOrderImport: (payload, { commandId }) => acceptOrderImport(deps, payload, commandId),
        GetOrderImport: (payload) => getOrderImport(deps, payload),
        CancelOrders: (payload, { commandId }) => cancelOrders(deps, payload, commandId),
        ErasePersonalData: (payload, { commandId }) => erasePersonalDataOf(deps, payload, commandId),
        CreateManifest: (payload, { commandId }) => createManifest(deps, payload, commandId),
      });
      const poll = deps.pollIntervalMs ? { pollIntervalMs: deps.pollIntervalMs } : {};
      workers = [
        startRegistrationWorker({
          ...deps,
          ...poll,
          ...(deps.registrationRetryDelayMs ? { retryDelayMs: deps.registrationRetryDelayMs } : {}),
        }),
        startBatchWorker({ ...deps, ...poll }),
        startImportWorker({ ...deps, ...poll }),
        startManifestWorker({ ...deps, ...poll }),
      ];
      if (deps.retention) retention = startRetentionWorker({ ...deps, retention: deps.retention });
    },
    /** Resolves once every worker has handled every event committed so far. */
    async caughtUp() {
      await Promise.all(workers.map((w) => w.caughtUp()));
    },
    async stop() {
      await unsubscribe?.();
      await Promise.all([...workers.map((w) => w.stop()), retention?.stop()]);
    },
  };
}

export { createOrder } from './creatingOrder/handler.ts';
export { erasePersonalData } from './erasingPersonalData/handler.ts';
export { REGISTRATION_SUBSCRIPTION } from './registeringWithCarrier/worker.ts';
export { MANIFEST_SUBSCRIPTION, startManifestWorker } from './creatingManifest/worker.ts';
export { createManifest, finishManifest } from './creatingManifest/handler.ts';
export { retentionSettingsOf } from './retainingPersonalData/worker.ts';
export type { RetentionSettings, RetentionSweep } from './retainingPersonalData/worker.ts';
