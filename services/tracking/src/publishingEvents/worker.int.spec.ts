/**
 * decisions.md "Events for downstream systems": every parcel event on parcel.events.v2 without its
 * personal values, keyed by tracking number, in order; the personal values on the compacted
 * parcel.personal.v1 until erasure writes the key's tombstone; parcel.events.v1 only when switched on
 * (docs/personal-data.md, "Downstream").
 */
import { randomBytes } from 'node:crypto';
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

const clock = { now: () => new Date('2026-11-22T06:05:09Z') };
/** What a parcel command is handled with here: the store, its projector on the views, a fixed clock, random ids. */
const commandDeps = (
  eventStore: ReturnType<typeof createSqliteEventStore>,
  projections: ReturnType<typeof createSqliteProjectionStore>,
) => ({
  eventStore,
  projector: createParcelProjector({ eventStore, views: projections.parcels }),
  clock,
  ids: randomIds,
});

const schemaOf = (version: string) =>
  JSON.parse(
    readFileSync(
      path.resolve(import.meta.dirname, `../../../../packages/contracts/schemas/parcel-events.${version}.schema.json`),
      'utf8',
    ),
  );
const validate = new Ajv2020({ strict: true }).compile(schemaOf('v1'));
const validateV2 = new Ajv2020({ strict: true }).compile(schemaOf('v2'));

test('with downstreamV1 on, a created, labelled and cancelled parcel: three schema-valid v1 messages in order, then a restart publishes nothing twice', async () => {
  const eventStore = createSqliteEventStore({ file: ':memory:' });
  const projections = createSqliteProjectionStore({ file: ':memory:' });
  const bus = createInProcessBus();
  const received: Message<ParcelEventMessage>[] = [];
  await bus.subscribe(
    Topics.parcelEvents,
    'downstream',
    async (m) => void received.push(m as Message<ParcelEventMessage>),
  );
  const deps = commandDeps(eventStore, projections);
  try {
    let publisher = startEventPublisher({ eventStore, bus, downstreamV1: true });
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
          now: deps.clock.now(),
        },
      }),
      {},
    );
    await handleParcelCommand(
      deps,
      tn,
      () => ({ type: 'CancelParcel', data: { clientId: 'demo', now: deps.clock.now() } }),
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
    publisher = startEventPublisher({ eventStore, bus, downstreamV1: true });
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

/** A message of the demo parcel PX1 at 14:05:09 SGT, with `fields` (its type, schema, status, revision and data). */
const messageOf = <F extends object>(fields: F) => ({
  eventId: 'e',
  trackingNumber: 'PX1',
  clientId: 'demo',
  time: '2026-11-22T14:05:09+08:00',
  ...fields,
});

test('the schema refuses a message missing a field or with a non-SGT time', () => {
  const good: ParcelEventMessage = messageOf({
    type: 'ParcelCancelled',
    schema: 'ParcelCancelled.v1',
    statusCode: 'CN_CN',
    streamRevision: 2,
    data: {},
  });
  expect(validate(good)).toBe(true);
  expect(validate({ ...good, time: '2026-11-22T06:05:09Z' })).toBe(false);
  const { clientId: _omitted, ...missing } = good;
  expect(validate(missing)).toBe(false);
});

/** A marker in every personal field of an order and of a carrier's delivery event, found nowhere else. */
function markers() {
  const tag = randomBytes(5).toString('hex').toUpperCase();
  const digits = () => String(60_000_000 + (randomBytes(3).readUIntBE(0, 3) % 9_999_999));
  /** A party's fields, each marked with its letter (R recipient, S sender). */
  const party = (letter: 'R' | 'S', street: string) => ({
    name: `${letter}name${tag}`,
    phone: digits(),
    address: `${letter}addr${tag} ${street}`,
    postalCode: `${letter}${tag.slice(0, 6)}`,
    city: `${letter}city${tag}`,
    email: `${letter.toLowerCase()}email${tag.toLowerCase()}@example.com`,
  });
  return {
    recipient: { ...party('R', 'Street 9'), state: `Rstate${tag}` },
    sender: party('S', 'Road 3'),
    instruction: `Rinstr${tag} leave at door`,
    delivery: {
      location: `Cloc${tag} Avenue 5`,
      remarks: `Cremarks${tag}`,
      receiveBy: `Csigner${tag}`,
      pod: [`pod/Cpod${tag}.png`],
    },
  };
}
const allValues = (m: ReturnType<typeof markers>): string[] => [
  ...Object.values(m.recipient),
  ...Object.values(m.sender),
  m.instruction,
  m.delivery.location,
  m.delivery.remarks,
  m.delivery.receiveBy,
  ...m.delivery.pod,
];

test('by default: v2 holds no personal value, the personal topic holds them until the tombstone of the erasure, v1 gets nothing', async () => {
  const eventStore = createSqliteEventStore({ file: ':memory:' });
  const projections = createSqliteProjectionStore({ file: ':memory:' });
  const bus = createInProcessBus();
  const on = async (topic: string) => {
    const received: Message[] = [];
    await bus.subscribe(topic, 'downstream', async (m) => void received.push(m));
    return received;
  };
  const [v1, v2, personal] = [
    await on(Topics.parcelEvents),
    await on(Topics.parcelEventsV2),
    await on(Topics.parcelPersonal),
  ];
  const deps = commandDeps(eventStore, projections);
  const m = markers();
  const sample = sampleParcelOrder();
  const carrierEvent = (eventTime: string, delivery = m.delivery) =>
    handleParcelCommand(
      deps,
      tn,
      () => ({
        type: 'RecordCarrierEvent',
        data: {
          carrierCode: 'DELIVERED',
          statusCode: 'DL_DL',
          eventTime: new Date(eventTime),
          ...delivery,
          now: deps.clock.now(),
        },
      }),
      {},
    );
  let tn = '';
  let publisher = startEventPublisher({ eventStore, bus });
  try {
    const created = await createOrder(
      deps,
      {
        clientId: 'demo',
        order: {
          ...sample,
          recipient: { ...sample.recipient, ...m.recipient },
          sender: { ...sample.sender, ...m.sender },
          instruction: m.instruction,
        },
        serviceType: 'LMD',
        carrier: 'GLX',
      },
      { commandId: 'c1', headers: {} },
    );
    if (!created.ok) throw new Error('not created');
    tn = created.trackingNumber;
    await carrierEvent('2026-11-23T02:15:00Z');
    await eventually(() => expect(personal).toHaveLength(2));
    await eventually(() => expect(v2).toHaveLength(2));

    for (const message of v2) {
      expect(validateV2(message.payload)).toBe(true);
      expect(message).toMatchObject({ key: tn, payload: { trackingNumber: tn, personalData: 'available' } });
      const text = JSON.stringify(message);
      for (const value of allValues(m)) expect(text).not.toContain(value);
    }
    expect(v2.map((message) => message.type)).toEqual(['ParcelRegistered.v1', 'CarrierEventRecorded.v1']);
    expect(personal.map((message) => message.key)).toEqual([tn, tn]);
    const { delivery } = m;
    expect(personal[0]!.payload).toEqual({
      trackingNumber: tn,
      clientId: 'demo',
      recipient: m.recipient,
      sender: m.sender,
      instruction: m.instruction,
      eventId: v2[0]!.id,
      streamRevision: 0,
    });
    expect(personal[1]!.payload).toMatchObject({
      recipient: m.recipient,
      signature: { receiveBy: delivery.receiveBy, pod: delivery.pod, statusCode: 'DL_DL', eventId: v2[1]!.id },
    });

    await handleParcelCommand(
      deps,
      tn,
      () => ({ type: 'ErasePersonalData', data: { clientId: 'demo', reason: 'request', now: deps.clock.now() } }),
      {},
    );
    await eventually(() => expect(personal).toHaveLength(3));
    expect(personal[2]).toMatchObject({ key: tn, type: 'PersonalDataErased.v1', payload: null });
    await eventually(() => expect(v2).toHaveLength(3));
    expect(v2[2]!.payload).toMatchObject({ type: 'PersonalDataErased', personalData: 'erased', statusCode: null });
    expect(validateV2(v2[2]!.payload)).toBe(true);

    // A fresh publisher knows nothing of the parcel: it learns of the erasure from its stream.
    await publisher.stop();
    publisher = startEventPublisher({ eventStore, bus });
    await carrierEvent('2026-11-23T03:15:00Z', { ...delivery, receiveBy: '', pod: [] });
    await eventually(() => expect(v2).toHaveLength(4));
    expect(v2[3]!.payload).toMatchObject({ type: 'CarrierEventRecorded', personalData: 'erased' });
    await publisher.caughtUp();
    await bus.idle();
    expect(personal).toHaveLength(3);
    expect(v1).toEqual([]);
  } finally {
    await publisher.stop();
    await bus.close();
    await eventStore.close();
    await projections.close();
  }
});

test('the v2 schema refuses a personal value, a missing personalData, and an erasure not marked erased', () => {
  const registered = messageOf({
    type: 'ParcelRegistered',
    schema: 'ParcelRegistered.v1',
    statusCode: 'DR_DR',
    streamRevision: 0,
    personalData: 'available',
    data: { order: { recipient_name: '', recipient_phone: '', recipient_address: '', recipient_country: 'SG' } },
  });
  expect(validateV2(registered)).toBe(true);
  const order = registered.data.order;
  expect(validateV2({ ...registered, data: { order: { ...order, recipient_name: 'Ada' } } })).toBe(false);
  expect(validateV2({ ...registered, data: { order: { ...order, sender_email: 'a@b.c' } } })).toBe(false);
  expect(validateV2({ ...registered, data: { order: { ...order, instruction: 'door' } } })).toBe(false);
  const { personalData: _omitted, ...missing } = registered;
  expect(validateV2(missing)).toBe(false);
  const delivered = {
    ...registered,
    type: 'CarrierEventRecorded',
    schema: 'CarrierEventRecorded.v1',
    statusCode: 'DL_DL',
    data: { location: 'Singapore', remarks: '', receiveBy: '', pod: [] },
  };
  expect(validateV2(delivered)).toBe(true);
  expect(validateV2({ ...delivered, data: { ...delivered.data, receiveBy: 'Ada' } })).toBe(false);
  expect(validateV2({ ...delivered, data: { ...delivered.data, pod: ['pod.png'] } })).toBe(false);
  const erased = {
    ...registered,
    type: 'PersonalDataErased',
    schema: 'PersonalDataErased.v1',
    statusCode: null,
    personalData: 'erased',
    data: { trackingNumber: 'PX1', reason: 'request', erasedAt: '2026-11-22T06:05:09.000Z' },
  };
  expect(validateV2(erased)).toBe(true);
  expect(validateV2({ ...erased, personalData: 'available' })).toBe(false);
});
