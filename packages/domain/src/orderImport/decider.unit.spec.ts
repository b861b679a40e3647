import { fold } from '../decider.ts';
import { orderImportDecider } from './decider.ts';
import type { OrderImportEvent } from './events.ts';

const now = new Date('2026-11-22T06:05:09Z');
const accepted: OrderImportEvent = {
  type: 'OrderImportAccepted',
  data: {
    importId: 'i1',
    clientId: 'demo',
    rows: 5,
    accepted: 4,
    parts: 2,
    rejected: [{ row: 3, reference: 'R3', message: 'recipient_phone invalid' }],
    acceptedAt: now,
  },
};
const part0: OrderImportEvent = {
  type: 'OrderImportPartCreated',
  data: { importId: 'i1', part: 0, created: 2, rejected: [], createdAt: now },
};
const { decide } = orderImportDecider;

describe('the import stream’s decider', () => {
  test('an import is accepted once: a redelivered summary records nothing', () => {
    const command = { type: 'AcceptOrderImport' as const, data: { ...accepted.data, now } };
    expect(decide(command, orderImportDecider.initialState())).toHaveLength(1);
    expect(decide(command, fold(orderImportDecider, [accepted]))).toEqual([]);
  });

  test('parts are recorded in order and once: a part redone after a restart records nothing', () => {
    const state = fold(orderImportDecider, [accepted, part0]);
    const record = (part: number) => ({
      type: 'RecordImportPart' as const,
      data: { part, created: 1, rejected: [], now },
    });
    expect(decide(record(0), state)).toEqual([]);
    expect(decide(record(1), state)).toHaveLength(1);
    expect(() => decide(record(2), state)).toThrow('part 2 of import i1 before part 1');
  });

  test('an import finishes after its last part, once; its counts sum every part', () => {
    const finish = { type: 'FinishOrderImport' as const, data: { now } };
    expect(() => decide(finish, fold(orderImportDecider, [accepted, part0]))).toThrow('import i1 has parts left');
    const part1: OrderImportEvent = {
      type: 'OrderImportPartCreated',
      data: {
        importId: 'i1',
        part: 1,
        created: 1,
        rejected: [{ row: 5, reference: 'R5', message: 'x' }],
        createdAt: now,
      },
    };
    const last = fold(orderImportDecider, [accepted, part0, part1]);
    expect(last).toMatchObject({ status: 'running', created: 3, partsCreated: 2, rejectedCount: 2 });
    expect(last.status !== 'none' && last.rejected.map((r) => r.row)).toEqual([3, 5]);
    const [finished] = decide(finish, last);
    expect(finished?.type).toBe('OrderImportFinished');
    expect(decide(finish, fold(orderImportDecider, [accepted, part0, part1, finished!]))).toEqual([]);
  });
});
