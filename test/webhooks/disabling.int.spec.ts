/**
 * Disabling: an endpoint that keeps failing for PARCEL_WEBHOOK_DISABLE_AFTER_MS is disabled, with the
 * reason recorded; enabling it again clears the reason and delivery resumes with what was queued.
 */
import { clientB } from '../support/client.ts';
import { eventually } from '../support/carriers.ts';
import { orderBody } from '../support/orders.ts';
import { subscribe, useStackAndReceiver } from './support.ts';

const t = useStackAndReceiver({
  PARCEL_WEBHOOK_RETRY_SCHEDULE_MS: '50,50,50,50,50,50,50,50,50,50,50,50,50,50,50,50,50,50,50,50',
  PARCEL_WEBHOOK_DISABLE_AFTER_MS: '300',
});

test('failing past the configured time disables the endpoint with its reason; enabling it again delivers what waited', async () => {
  const b = clientB(t.stack);
  // The receiver refuses every attempt for now (503, retried).
  const { id, secret } = await subscribe(
    b,
    t.receiver,
    { url: `${t.receiver.url}/flaky`, event_types: ['ParcelRegistered'] },
    1000,
  );
  const tn = (await b.post('order/create-order', orderBody())).body.data.wmg_tracking_num as string;

  await eventually(
    async () => expect((await b.get('webhook/get-endpoint', { endpoint_id: id })).body.data.enabled).toBe(false),
    10_000,
  );
  const disabled = (await b.get('webhook/get-endpoint', { endpoint_id: id })).body.data;
  expect(disabled.disabled_reason).toMatch(/^failing since \d{4}-\d\d-\d\dT[\d:.]+Z: HTTP 503$/);

  await t.receiver.configure({ secrets: [secret], failFirst: 0 });
  const enabled = await b.post('webhook/update-endpoint', { endpoint_id: id, enabled: true });
  expect(enabled.body.data).toMatchObject({ enabled: true, disabled_reason: '' });
  await eventually(
    async () =>
      expect((await t.receiver.received()).some((r) => r.body.trackingNumber === tn && r.verified)).toBe(true),
    10_000,
  );
}, 30_000);
