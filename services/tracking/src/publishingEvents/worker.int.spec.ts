/** decisions.md "Events for downstream systems": every parcel event on parcel.events.v1, keyed by tracking number, in order. */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { createParcelProjector, handleParcelCommand, randomIds } from '@parcel-logistics/application';
import { createInProcessBus } from '@parcel-logistics/bus';
import type { Message } from '@parcel-logistics/bus';
import { eventually } from '@parcel-logistics/bus/conformance';
import { Topics } from '@parcel-logistics/contracts';
import type { ParcelEventMessage } from '@parcel-logistics/contracts';
import { sampleParcelOrder } from '@parcel-logistics/domain/testing';
import { createSqliteEventStore } from '@parcel-logistics/eventstore-sqlite';
import { createOrder } from '@parcel-logistics/order';
import { createSqliteProjectionStore } from '@parcel-logistics/projections-sqlite';
import { startEventPublisher } from './worker.ts';

const schema = JSON.parse(
  readFileSync(
    path.resolve(import.meta.dirname, '../../../../packages/contracts/schemas/parcel-events.v1.schema.json'),
    'utf8',
  ),
);
const validate = new Ajv2020({ strict: true }).compile(schema);

test('a created, labelled and cancelled parcel: three schema-valid messages in order, then a restart publishes nothing twice', async () => {
  const eventStore = createSqliteEventStore({ file: ':memory:' });
  const projections = createSqliteProjectionStore({ file: ':memory:' });
  const bus = createInProcessBus();
  const received: Message<ParcelEventMessage>[] = [];
  await bus.subscribe(
    Topics.parcelEvents,
    'downstream',
    async (m) => void received.push(m as Message<ParcelEventMessage>),
  );
  const clock = { now: () => new Date('2026-11-22T06:05:09Z') };
  const deps = {
    eventStore,
    projector: createParcelProjector({ eventStore, views: projections.parcels }),
    clock,
    ids: randomIds,
  };
  try {
    let publisher = startEventPublisher({ eventStore, bus });
    const created = await createOrder(
      deps,
      { clientId: 'demo', order: sampleParcelOrder(), serviceType: 'LMD', carrier: 'GLX' },
      { commandId: 'c1', headers: { traceparent: '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01' } },
    );
    if (!created.ok) throw new Error('not created');
    const tn = created.trackingNumber;
    await handleParcelCommand(
      deps,
      tn,
      () => ({
        type: 'GenerateLabel',
        data: {
          clientId: 'demo',
          origin: 'SG',
          destination: 'SG',
          labelType: 'CN23',
          direction: 'vertical',
          selfLabelServiceTypes: [],
          now: clock.now(),
        },
      }),
      {},
    );
    await handleParcelCommand(
      deps,
      tn,
      () => ({ type: 'CancelParcel', data: { clientId: 'demo', now: clock.now() } }),
      {},
    );
    await eventually(() => expect(received).toHaveLength(3));

    expect(received.map((m) => m.payload.statusCode)).toEqual(['DR_DR', 'LB_GN', 'CN_CN']);
    expect(received.map((m) => m.payload.streamRevision)).toEqual([0, 1, 2]);
    for (const m of received) {
      expect(validate(m.payload)).toBe(true);
      expect(m.key).toBe(tn);
      expect(m.id).toBe(m.payload.eventId);
      expect(m.payload).toMatchObject({ trackingNumber: tn, clientId: 'demo', time: '2026-11-22T14:05:09+08:00' });
    }
    expect(received[0]!.headers).toMatchObject({
      'event-type': 'ParcelRegistered.v1',
      traceparent: '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01',
    });

    await publisher.stop();
    publisher = startEventPublisher({ eventStore, bus });
    await publisher.caughtUp();
    await bus.idle();
    expect(received).toHaveLength(3);
    await publisher.stop();
  } finally {
    await bus.close();
    await eventStore.close();
    await projections.close();
  }
});

test('the schema refuses a message missing a field or with a non-SGT time', () => {
  const good: ParcelEventMessage = {
    type: 'ParcelCancelled',
    schema: 'ParcelCancelled.v1',
    eventId: 'e',
    trackingNumber: 'PX1',
    clientId: 'demo',
    statusCode: 'CN_CN',
    time: '2026-11-22T14:05:09+08:00',
    streamRevision: 2,
    data: {},
  };
  expect(validate(good)).toBe(true);
  expect(validate({ ...good, time: '2026-11-22T06:05:09Z' })).toBe(false);
  const { clientId: _omitted, ...missing } = good;
  expect(validate(missing)).toBe(false);
});
