/**
 * Webhook delivery without waiting for the next poll: what the fan-out queues is sent at once.
 * The dispatcher's poll is set to ten minutes, far beyond the test's own time limit, so a webhook
 * that arrives here was sent because the fan-out woke the dispatcher, not because a poll found it.
 */
import { clientB, DEMO } from '../support/client.ts';
import { eventually } from '../support/carriers.ts';
import { orderBody } from '../support/orders.ts';
import { subscribe, useStackAndReceiver } from './support.ts';

const t = useStackAndReceiver({ PARCEL_WEBHOOK_POLL_MS: '600000' }, { realTime: true });

test('a parcel event queued by the fan-out goes out at once, with the dispatcher’s next poll ten minutes away', async () => {
  await subscribe(clientB(t.stack, DEMO), t.receiver, {
    url: `${t.receiver.url}/wake`,
    event_types: ['ParcelRegistered'],
  });
  const numbers: string[] = [];
  for (let i = 0; i < 3; i++) {
    const reply = await clientB(t.stack, DEMO).post('order/create-order', orderBody());
    expect(reply.body.code).toBe(0);
    numbers.push(reply.body.data.wmg_tracking_num);
  }
  await eventually(async () => {
    const got = await t.receiver.received();
    expect(got.filter((r) => r.verified).map((r) => r.body.trackingNumber)).toEqual(numbers);
  }, 20_000);
}, 60_000);
