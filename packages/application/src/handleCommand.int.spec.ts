import { parcelStreamName, referenceStreamName } from '@parcel-logistics/contracts';
import { parcelDecider, referenceDecider, ReferenceExistsError } from '@parcel-logistics/domain';
import type { ParcelCommand, ParcelEvent } from '@parcel-logistics/domain';
import { sampleParcelOrder } from '@parcel-logistics/domain/testing';
import { WrongExpectedRevisionError } from '@parcel-logistics/eventstore';
import type { EventStore } from '@parcel-logistics/eventstore';
import { createSqliteEventStore } from '@parcel-logistics/eventstore-sqlite';
import { handleCommand, handleCommands, readStreamState, streamCommand } from './handleCommand.ts';

const TN = 'PX000000000000001Y';
const stream = parcelStreamName(TN);
const now = new Date('2026-11-22T06:00:00Z');
const register: ParcelCommand = {
  type: 'RegisterParcel',
  data: { trackingNumber: TN, clientId: 'demo', order: sampleParcelOrder(), serviceType: 'LMD', carrier: 'LMX', now },
};
const fail: ParcelCommand = { type: 'RecordCarrierRegistrationFailure', data: { reason: 'down', now } };

let eventStore: EventStore;
let n = 0;
const eventId = () => `e-${++n}`;

beforeEach(() => {
  eventStore = createSqliteEventStore({ file: ':memory:' });
});
afterEach(() => eventStore.close());

describe('the command handler', () => {
  test('reads, decides and appends; several commands are decided in turn into one append', async () => {
    const first = await handleCommand(eventStore, stream, parcelDecider, register, { metadata: { m: 1 }, eventId });
    expect(first.state).toEqual({ status: 'empty' });
    expect(first.events.map((e) => [e.event.type, e.revision])).toEqual([['ParcelRegistered', 0]]);

    const two = await handleCommand(eventStore, stream, parcelDecider, [fail, fail], { metadata: {}, eventId });
    expect(
      two.events.map((e) => [
        (e.event as Extract<ParcelEvent, { type: 'CarrierRegistrationFailed' }>).data.attempt,
        e.revision,
      ]),
    ).toEqual([
      [1, 1],
      [2, 2],
    ]);
    expect(two.newState).toMatchObject({ registrationAttempts: 2 });
    const stored = await eventStore.readStream(stream);
    expect(stored.map((r) => r.metadata)).toEqual([{ m: 1 }, {}, {}]);
    expect((await readStreamState(eventStore, stream, parcelDecider)).revision).toBe(2);
  });

  test('a refusal appends nothing; a command deciding nothing appends nothing', async () => {
    await expect(handleCommand(eventStore, stream, parcelDecider, fail, { metadata: {}, eventId })).rejects.toThrow(
      'ParcelNotFound',
    );
    const beforeAppend = jest.fn(async () => {});
    await handleCommand(eventStore, stream, parcelDecider, register, { metadata: {}, eventId });
    const event: ParcelCommand = {
      type: 'RecordCarrierEvent',
      data: {
        carrierCode: 'X',
        statusCode: 'DL_DL',
        eventTime: now,
        location: '',
        remarks: '',
        receiveBy: '',
        pod: [],
        now,
      },
    };
    await handleCommand(eventStore, stream, parcelDecider, event, { metadata: {}, eventId });
    const again = await handleCommand(eventStore, stream, parcelDecider, event, {
      metadata: {},
      eventId,
      beforeAppend,
    });
    expect(again.events).toEqual([]);
    expect(beforeAppend).not.toHaveBeenCalled();
    expect(await eventStore.readStream(stream)).toHaveLength(2);
  });

  test('a concurrent writer: read, decided and appended again on the new state', async () => {
    await handleCommand(eventStore, stream, parcelDecider, register, { metadata: {}, eventId });
    let raced = false;
    const decided = await handleCommand(eventStore, stream, parcelDecider, fail, {
      metadata: {},
      eventId,
      beforeAppend: async () => {
        if (raced) return;
        raced = true;
        await handleCommand(eventStore, stream, parcelDecider, fail, { metadata: {}, eventId });
      },
    });
    expect(decided.events.map((e) => e.revision)).toEqual([2]);
    expect(decided.newState).toMatchObject({ registrationAttempts: 2 });
  });

  test('conflicts are retried a bounded number of times, then the conflict is thrown', async () => {
    await handleCommand(eventStore, stream, parcelDecider, register, { metadata: {}, eventId });
    let attempts = 0;
    const racing = handleCommand(eventStore, stream, parcelDecider, fail, {
      metadata: {},
      eventId,
      maxAttempts: 3,
      beforeAppend: async () => {
        attempts++;
        await handleCommand(eventStore, stream, parcelDecider, fail, { metadata: {}, eventId });
      },
    });
    await expect(racing).rejects.toBeInstanceOf(WrongExpectedRevisionError);
    expect(attempts).toBe(3);
  });

  test('several streams in one appendMany: decided on the events in hand, read again only after a conflict', async () => {
    const reference = referenceStreamName('demo', 'REF-1');
    const claim = streamCommand({
      streamName: reference,
      decider: referenceDecider,
      command: {
        type: 'ClaimReference',
        data: { clientId: 'demo', customTrackingNum: 'REF-1', trackingNumber: TN, now },
      },
      metadata: {},
      known: [],
    });
    const parcel = streamCommand({
      streamName: stream,
      decider: parcelDecider,
      command: register,
      metadata: {},
      known: [],
    });
    const reads = jest.spyOn(eventStore, 'readStream');
    const [claimed, registered] = await handleCommands(eventStore, [claim, parcel], { eventId });
    expect(reads).not.toHaveBeenCalled();
    expect(claimed.events[0]!.event.type).toBe('ReferenceClaimed');
    expect(registered.events[0]!.event.type).toBe('ParcelRegistered');

    // The same reference again, for another parcel: the conflict reads both streams, and the claim is refused.
    const other = parcelStreamName('PX000000000000002W');
    await expect(
      handleCommands(eventStore, [claim, { ...parcel, streamName: other }], { eventId }),
    ).rejects.toBeInstanceOf(ReferenceExistsError);
    expect(reads.mock.calls.map(([name]) => name).sort()).toEqual([other, reference].sort());
    expect(await eventStore.readStream(other)).toEqual([]);
  });
});
