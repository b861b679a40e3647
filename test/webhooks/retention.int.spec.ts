/**
 * Retention of the delivery log: the webhook service prunes delivered messages and
 * attempts older than PARCEL_WEBHOOK_RETENTION_MS (here 300 ms, pruned as often); a message still
 * pending is never pruned.
 */
import { clientB } from '../support/client.ts';
import { eventually } from '../support/carriers.ts';
import { orderBody } from '../support/orders.ts';
import { createEndpoint, subscribe, useStackAndReceiver } from './support.ts';

const t = useStackAndReceiver({
  PARCEL_WEBHOOK_RETENTION_MS: '300',
  PARCEL_WEBHOOK_RETRY_SCHEDULE_MS: '3600000',
});

test('"Retention of the log": delivered messages and every attempt go after the retention time; a pending message stays', async () => {
  const b = clientB(t.stack);
  const live = await subscribe(b, t.receiver, { url: `${t.receiver.url}/kept`, event_types: ['ParcelRegistered'] });
  const dead = await createEndpoint(b, { url: 'http://127.0.0.1:9/dead', event_types: ['ParcelRegistered'] });
  const [liveId, deadId] = [live.id, dead.id];
  const tn = (await b.post('order/create-order', orderBody())).body.data.wmg_tracking_num as string;
  await eventually(
    async () => expect((await t.receiver.received()).some((r) => r.body.trackingNumber === tn)).toBe(true),
    10_000,
  );

  const list = async (operation: string, endpointId: string, key: string) =>
    (await b.get(`webhook/${operation}`, { endpoint_id: endpointId })).body.data[key] as unknown[];
  const deadMessage = { tracking_num: tn, state: 'pending', attempts: 1 };
  await eventually(
    async () => expect(await list('list-messages', deadId, 'messages')).toMatchObject([deadMessage]),
    10_000,
  );
  await eventually(async () => {
    expect(await list('list-messages', liveId, 'messages')).toEqual([]);
    expect(await list('list-attempts', liveId, 'attempts')).toEqual([]);
    expect(await list('list-attempts', deadId, 'attempts')).toEqual([]);
  }, 10_000);
  // The dead endpoint's message failed once and waits an hour for its retry: pending, so kept.
  expect(await list('list-messages', deadId, 'messages')).toMatchObject([deadMessage]);
}, 20_000);
