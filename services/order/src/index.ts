import { Topics } from '@parcel-logistics/contracts';
import type { AcceptOrderBatch, CancelOrders, CreateOrder, SettleCreateOrder } from '@parcel-logistics/contracts';
import type { Bus, Message, Unsubscribe } from '@parcel-logistics/bus';
import type { CarrierClient } from '@parcel-logistics/carriers';
import type { Subscription } from '@parcel-logistics/eventstore';
import type { ParcelViewStore } from '@parcel-logistics/projections';
import type { ReferenceData } from '@parcel-logistics/reference-data';
import { cancelOrders } from './cancellingOrders/handler.ts';
import { createOrder, settleCreateOrder } from './creatingOrder/handler.ts';
import type { CreateOrderDeps } from './creatingOrder/handler.ts';
import { acceptOrderBatch } from './creatingOrders/handler.ts';
import { startBatchWorker } from './creatingOrders/worker.ts';
import { startRegistrationWorker } from './registeringWithCarrier/worker.ts';

export type OrderServiceDeps = CreateOrderDeps & {
  bus: Bus;
  views: ParcelViewStore;
  ref: ReferenceData;
  /** Carrier clients by carrier code (LMX and LMX-PU); carriers absent here take no registrations. */
  carriers: ReadonlyMap<string, CarrierClient>;
  registrationRetryDelayMs?: number;
  pollIntervalMs?: number;
};

/** The order service: order commands from the bus, carrier registration and batch creation from the store's log. */
export function createOrderService(deps: OrderServiceDeps) {
  let unsubscribe: Unsubscribe | undefined;
  let workers: Subscription[] = [];

  async function handle(message: Message): Promise<unknown> {
    const meta = { commandId: message.id, ...(message.headers ? { headers: message.headers } : {}) };
    switch (message.type) {
      case 'CreateOrder':
        return createOrder(deps, (message as Message<CreateOrder['payload']>).payload, meta);
      case 'SettleCreateOrder':
        return settleCreateOrder(deps, (message as Message<SettleCreateOrder['payload']>).payload);
      case 'AcceptOrderBatch':
        return acceptOrderBatch(deps, (message as Message<AcceptOrderBatch['payload']>).payload, message.id);
      case 'CancelOrders':
        return cancelOrders(deps, (message as Message<CancelOrders['payload']>).payload, message.id);
      default:
        throw new Error(`order service: unknown command ${message.type}`);
    }
  }

  return {
    async start() {
      unsubscribe = await deps.bus.handleRequests(Topics.orderCommands, handle);
      const poll = deps.pollIntervalMs ? { pollIntervalMs: deps.pollIntervalMs } : {};
      workers = [
        startRegistrationWorker({
          ...deps,
          ...poll,
          ...(deps.registrationRetryDelayMs ? { retryDelayMs: deps.registrationRetryDelayMs } : {}),
        }),
        startBatchWorker({ ...deps, ...poll }),
      ];
    },
    /** Resolves once both workers have handled every event committed so far. */
    async caughtUp() {
      await Promise.all(workers.map((w) => w.caughtUp()));
    },
    async stop() {
      await unsubscribe?.();
      await Promise.all(workers.map((w) => w.stop()));
    },
  };
}

export { createOrder } from './creatingOrder/handler.ts';
export { REGISTRATION_SUBSCRIPTION } from './registeringWithCarrier/worker.ts';
