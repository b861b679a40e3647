import { Topics } from '@parcel/contracts';
import type { CreateOrder } from '@parcel/contracts';
import type { Bus, Message, Unsubscribe } from '@parcel/bus';
import { createOrder } from './creatingOrder/createOrder.ts';
import type { CreateOrderDeps } from './creatingOrder/createOrder.ts';

export type OrderServiceDeps = CreateOrderDeps & { bus: Bus };

/** The order service: serves order commands from the bus. */
export function createOrderService(deps: OrderServiceDeps) {
  let unsubscribe: Unsubscribe | undefined;
  async function handle(message: Message): Promise<unknown> {
    switch (message.type) {
      case 'CreateOrder':
        return createOrder(deps, (message as Message<CreateOrder['payload']>).payload, { commandId: message.id, ...(message.headers ? { headers: message.headers } : {}) });
      default:
        throw new Error(`order service: unknown command ${message.type}`);
    }
  }
  return {
    async start() {
      unsubscribe = await deps.bus.handleRequests(Topics.orderCommands, handle);
    },
    async stop() {
      await unsubscribe?.();
    },
  };
}

export { createOrder } from './creatingOrder/createOrder.ts';
