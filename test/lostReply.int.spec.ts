/**
 * A service dying mid-request loses the reply (the crash tests of the distributed tier do this for
 * real). The gateway must then answer success only for an order its own command created, and a
 * command redelivered after its deadline must create nothing.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createParcelProjector, randomIds } from '@parcel-logistics/application';
import { BusTimeoutError, createInProcessBus } from '@parcel-logistics/bus';
import type { Bus, Message } from '@parcel-logistics/bus';
import { DEADLINE_HEADER, Topics } from '@parcel-logistics/contracts';
import { createSqliteEventStore } from '@parcel-logistics/eventstore-sqlite';
import { createOrderService } from '@parcel-logistics/order';
import { createSqliteProjectionStore } from '@parcel-logistics/projections-sqlite';
import { loadReferenceData } from '@parcel-logistics/reference-data';
import { clientB, realTime } from './support/client.ts';
import { orderBody } from './support/orders.ts';
import { listeningGateway } from '../services/gateway/test/gateway.fixtures.ts';

const dir = mkdtempSync(path.join(tmpdir(), 'lost-reply-'));
const eventStore = createSqliteEventStore({ file: path.join(dir, 'events.db'), durability: 'normal' });
const projections = createSqliteProjectionStore({ file: path.join(dir, 'views.db') });
const inner = createInProcessBus();
const ref = loadReferenceData();
const clock = { now: () => new Date() };
const order = createOrderService({
  eventStore,
  projector: createParcelProjector({ eventStore, views: projections.parcels }),
  views: projections.parcels,
  manifests: projections.manifests,
  bus: inner,
  ref,
  clock,
  ids: randomIds,
  carriers: new Map(),
  // Nothing is erased here.
  personalData: {
    destroyKey: () => Promise.reject(new Error('no erasure in this test')),
    shred: async () => {},
    keyedStreams: async function* () {},
  },
  idempotency: projections.idempotency,
});

/**
 * What the next create-order command does: 'lose-reply' runs it and then times out, 'drop' never
 * delivers it, 'redeliver-late' runs it, loses the reply and delivers it again once its deadline passed.
 * Other requests (the gateway's SettleCreateOrder after a failure) go through.
 */
let mode: 'lose-reply' | 'drop' | 'redeliver-late' = 'lose-reply';
const dropped: Message[] = [];
const bus: Bus = {
  ...inner,
  async request<T>(topic: string, message: Message, options: { timeoutMs: number }): Promise<T> {
    if (topic !== Topics.orderCommands || message.type !== 'CreateOrder')
      return inner.request<T>(topic, message, options);
    if (mode === 'drop') dropped.push(message);
    else await inner.request(topic, message, options);
    if (mode !== 'redeliver-late') throw new BusTimeoutError(topic, options.timeoutMs);
    await new Promise((r) => setTimeout(r, Math.max(0, Number(message.headers![DEADLINE_HEADER]) - Date.now() + 5)));
    return inner.request<T>(topic, message, options);
  },
};

const gateway = listeningGateway({ bus, projections, clock }, { commandTimeoutMs: 3000 });
let url: string;
beforeAll(async () => {
  await order.start();
  await gateway.start();
  url = gateway.url();
});
afterAll(async () => {
  await gateway.stop();
  await order.stop();
  await inner.close();
  await eventStore.close();
  await projections.close();
  rmSync(dir, { recursive: true, force: true });
});

test.each([
  [
    'the reply is lost after the order was created: the gateway recognises its own order and answers success',
    'lose-reply',
  ],
  [
    'the command ran and its redelivery comes after the deadline: it answers as the first delivery did, not as expired',
    'redeliver-late',
  ],
] as const)('%s', async (_title, whatHappens) => {
  mode = whatHappens;
  const body = orderBody();
  const r = await clientB(realTime(url)).post('order/create-order', body);
  expect(r.body).toMatchObject({
    code: 0,
    data: { custom_tracking_num: body.custom_tracking_num, wmg_tracking_num: expect.any(String) },
  });
  const found = await clientB(realTime(url)).get('order/get-barcode', {
    custom_tracking_num: String(body.custom_tracking_num),
  });
  expect(found.body.data.barcode).toBe(r.body.data.wmg_tracking_num);
});

test('the command never ran: HTTP 500 once its deadline passed, and its redelivery then creates nothing', async () => {
  mode = 'drop';
  const body = orderBody();
  const r = await clientB(realTime(url)).post('order/create-order', body);
  expect(r.status).toBe(500);
  expect(r.body).toEqual({ code: 1, message: 'server error', data: [] });
  // The gateway answered only once the command's deadline had passed: delivered now, as it was sent, it is refused.
  const late = dropped.pop()!;
  expect(Number(late.headers![DEADLINE_HEADER])).toBeLessThan(Date.now());
  const reply = await inner.request(Topics.orderCommands, late, { timeoutMs: 3000 });
  expect(reply).toEqual({ ok: false, error: 'Expired' });
  expect(
    (await clientB(realTime(url)).get('order/get-barcode', { custom_tracking_num: String(body.custom_tracking_num) }))
      .body.message,
  ).toBe('Order Not Found!');
});
