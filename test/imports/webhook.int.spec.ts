/**
 * docs/webhooks.md, "Account events": an import finished reaches the account's endpoints subscribed
 * to `OrderImportFinished`, signed (verified by `standardwebhooks` in the receiver), with its counts
 * and nothing personal; never another account's endpoints.
 */
import { clientB, OTHER } from '../support/client.ts';
import { eventually } from '../support/carriers.ts';
import { csvOf, orderBody } from '../support/orders.ts';
import { useStackAndReceiver } from '../webhooks/support.ts';

const env = useStackAndReceiver({ PARCEL_WEBHOOK_POLL_MS: '20' }, { realTime: true });

test('OrderImportFinished: the import id and counts, once, to the importing account only', async () => {
  const { stack, receiver } = env;
  const secrets: string[] = [];
  for (const account of [undefined, OTHER]) {
    const created = await clientB(stack, account).post('webhook/create-endpoint', {
      url: `${receiver.url}/${account ? 'other' : 'demo'}`,
      event_types: ['OrderImportFinished'],
    });
    expect(created.body.code).toBe(0);
    secrets.push(created.body.data.secret);
  }
  // The demo endpoint's secret: a delivery to the other account's would be received unverified.
  await receiver.configure({ secrets: secrets.slice(0, 1) });

  const good = orderBody({ recipient_name: 'Wee Kim Wee' });
  const file = csvOf([good, orderBody({ recipient_phone: 'abc' })]);
  const accepted = await clientB(stack).csv('order/import-orders', file);
  expect(accepted.body.code).toBe(0);
  const importId: string = accepted.body.data.import_id;

  await eventually(async () => expect((await receiver.received()).length).toBeGreaterThan(0));
  await stack.caughtUp();
  const received = await receiver.received();
  expect(received).toHaveLength(1);
  const [message] = received;
  expect(message).toMatchObject({ path: '/demo', verified: true });
  expect(message!.body).toEqual({
    type: 'OrderImportFinished',
    schema: 'OrderImportFinished.v1',
    eventId: expect.any(String),
    clientId: 'demo',
    time: expect.stringMatching(/\+08:00$/),
    data: { import_id: importId, rows: 2, accepted: 1, rejected: 1, created: 1 },
  });
  expect(JSON.stringify(message!.body)).not.toContain('Wee Kim Wee');
});
