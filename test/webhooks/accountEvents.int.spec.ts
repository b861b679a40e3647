/**
 * docs/webhooks.md, "Account events": an import finished and a manifest created reach the account's
 * endpoints subscribed to `OrderImportFinished` and `ManifestCreated`, signed (verified by
 * `standardwebhooks` in the receiver), with their figures and nothing personal; never another
 * account's endpoints.
 */
import { clientB, OTHER } from '../support/client.ts';
import { eventually, registeredParcel } from '../support/carriers.ts';
import { csvOf, orderBody } from '../support/orders.ts';
import { createEndpoint, useStackAndReceiver } from './support.ts';

const env = useStackAndReceiver({}, { realTime: true });

beforeAll(async () => {
  const { stack, receiver } = env;
  const secrets: string[] = [];
  for (const account of [undefined, OTHER]) {
    const created = await createEndpoint(clientB(stack, account), {
      url: `${receiver.url}/${account ? 'other' : 'demo'}`,
      event_types: ['OrderImportFinished', 'ManifestCreated'],
    });
    secrets.push(created.secret);
  }
  // The demo endpoint's secret: a delivery to the other account's would be received unverified.
  await receiver.configure({ secrets: secrets.slice(0, 1) });
});

/** What the receiver got of this type (after every event so far went out). */
async function receivedOf(type: string) {
  await eventually(async () => expect((await env.receiver.received()).some((r) => r.body.type === type)).toBe(true));
  await env.stack.caughtUp();
  return (await env.receiver.received()).filter((r) => r.body.type === type);
}

test('OrderImportFinished: the import id and counts, once, to the importing account only', async () => {
  const { stack } = env;
  const good = orderBody({ recipient_name: 'Wee Kim Wee' });
  const file = csvOf([good, orderBody({ recipient_phone: 'abc' })]);
  const accepted = await clientB(stack).csv('order/import-orders', file);
  expect(accepted.body.code).toBe(0);
  const importId: string = accepted.body.data.import_id;

  const received = await receivedOf('OrderImportFinished');
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

test('ManifestCreated: the manifest id, carrier and the closed numbers, once, to its account only', async () => {
  const { stack } = env;
  const { tn } = await registeredParcel(stack, { recipient_name: 'Wee Kim Wee' });
  const made = await clientB(stack).post('manifest/create-manifest', { carrier: 'LMX' });
  expect(made.body.code).toBe(0);
  const received = await receivedOf('ManifestCreated');
  expect(received).toHaveLength(1);
  expect(received[0]).toMatchObject({ path: '/demo', verified: true });
  expect(received[0]!.body).toEqual({
    type: 'ManifestCreated',
    schema: 'ManifestCompleted.v1',
    eventId: expect.any(String),
    clientId: 'demo',
    time: expect.stringMatching(/\+08:00$/),
    // Every registered LMX parcel of the account: the imported one of the test before too.
    data: {
      manifest_id: made.body.data.manifest_id,
      carrier: 'LMX',
      count: made.body.data.count,
      tracking_numbers: made.body.data.tracking_numbers,
    },
  });
  expect(made.body.data.tracking_numbers).toContain(tn);
  expect(JSON.stringify(received[0]!.body)).not.toContain('Wee Kim Wee');
});
