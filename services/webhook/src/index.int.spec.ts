/**
 * The fan-out wakes the dispatcher only for a page that queued a delivery: a page of events of
 * accounts without endpoints (most pages, on a stack where few accounts have endpoints) costs the
 * delivery store no query. The dispatcher's poll is ten minutes away, so every look for due
 * deliveries after the first is a wake.
 */
import { toAppend } from '@parcel-logistics/application';
import { eventually } from '@parcel-logistics/bus/conformance';
import { parcelStreamName } from '@parcel-logistics/contracts';
import { sampleRegistered } from '@parcel-logistics/domain/testing';
import { createSqliteEventStore } from '@parcel-logistics/eventstore-sqlite';
import { endpointOf } from '@parcel-logistics/webhooks/conformance';
import { createSqliteWebhookDeliveries, createSqliteWebhookStore } from '@parcel-logistics/webhooks-sqlite';
import pino from 'pino';
import { createWebhookService } from './index.ts';

const TEN_MINUTES = 600_000;

test('a page that queued nothing wakes no dispatcher; a page that queued a delivery does', async () => {
  const eventStore = createSqliteEventStore({ file: ':memory:' });
  const endpoints = createSqliteWebhookStore({ file: ':memory:' });
  const deliveries = createSqliteWebhookDeliveries({ file: ':memory:' });
  let looks = 0;
  const service = createWebhookService({
    eventStore,
    endpoints,
    deliveries: { ...deliveries, dueEndpoints: (now) => ((looks += 1), deliveries.dueEndpoints(now)) },
    clock: { now: () => new Date() },
    log: pino({ level: 'silent' }),
    config: {
      retryScheduleMs: [TEN_MINUTES],
      timeoutMs: 1_000,
      disableAfterMs: TEN_MINUTES,
      allowPrivate: true,
      pollIntervalMs: TEN_MINUTES,
      leaseMs: 2_000,
      retentionMs: TEN_MINUTES,
    },
    owner: 'test',
  });
  const register = (trackingNumber: string) =>
    eventStore.append({
      streamName: parcelStreamName(trackingNumber),
      expectedRevision: 'no_stream',
      events: [toAppend({ event: sampleRegistered(trackingNumber, new Date()), eventId: trackingNumber }, {})],
    });
  await service.start();
  try {
    // The dispatcher's first look, at start.
    await eventually(() => expect(looks).toBe(1), 2_000);

    // `demo` has no endpoint: three pages of its parcels, nothing queued, no look.
    for (const n of ['PX000000000000001Y', 'PX000000000000002Y', 'PX000000000000003Y']) {
      await register(n);
      await service.caughtUp();
    }
    expect(looks).toBe(1);
    expect(await deliveries.dueEndpoints(new Date(Date.now() + TEN_MINUTES))).toEqual([]);

    // With an endpoint (on a closed port: the attempt fails, which is not what is checked), the next page wakes it.
    await endpoints.create(endpointOf('we_1', 'demo', { url: 'http://127.0.0.1:9/hook' }), 10);
    await register('PX000000000000004Y');
    await service.caughtUp();
    await eventually(() => expect(looks).toBe(2), 2_000);
  } finally {
    await service.stop();
    await Promise.all([eventStore.close(), endpoints.close(), deliveries.close()]);
  }
});
