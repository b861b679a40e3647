import type { OrderBatchAccepted } from './events.ts';
import { orderBatchDecider } from './decider.ts';
import type { RecordOrderBatch } from './decider.ts';
import { sampleParcelOrder } from '../../test/fixtures.ts';
import { givenWhenThen } from '../../test/givenWhenThen.ts';

const now = new Date('2026-11-22T06:00:00Z');
const orders = [{ clientId: 'demo', order: sampleParcelOrder(), serviceType: 'LMD', carrier: 'LMX' }];
const record: RecordOrderBatch = { type: 'RecordOrderBatch', data: { batchId: 'b-1', clientId: 'demo', orders, now } };
const accepted: OrderBatchAccepted = {
  type: 'OrderBatchAccepted',
  data: { batchId: 'b-1', clientId: 'demo', orders, acceptedAt: now },
};
const given = givenWhenThen(orderBatchDecider);

describe('order batch decider', () => {
  test('a batch not yet recorded -> OrderBatchAccepted with its orders', () => {
    given().when(record).then([accepted]);
  });

  test('a redelivered batch finds it recorded: nothing more', () => {
    given(accepted)
      .when({ ...record, data: { ...record.data, now: new Date('2026-11-22T07:00:00Z') } })
      .then([]);
    expect(given(accepted).state()).toEqual({ status: 'accepted', acceptedAt: now });
  });
});
