import { clientA, clientB, OTHER, tokenFor } from '../support/client.ts';
import { orderBody } from '../support/orders.ts';
import { startTestStack } from '../support/stack.ts';
import type { TestStack } from '../support/stack.ts';

let stack: TestStack;
let token: string;
const tns: string[] = [];
const refs: string[] = [];
beforeAll(async () => {
  stack = await startTestStack();
  token = await tokenFor(stack);
  for (let i = 0; i < 3; i++) {
    const body = orderBody();
    refs.push(body.custom_tracking_num as string);
    tns.push((await clientB(stack).post('order/create-order', body)).body.data.wmg_tracking_num);
  }
});
afterAll(() => stack.destroy());

const lookup = (body: unknown) => clientA(stack, token).post('status/lookup', body);

describe('A1 status lookup', () => {
  test('Success shape: Code 0, Message Success, Data {Success: [status record A], Errors: []}', async () => {
    const r = await lookup({ TrackingNumber: [tns[0]] });
    expect(r.body).toEqual({
      Code: 0,
      Message: 'Success',
      Data: {
        Success: [
          {
            TrackingNumber: tns[0],
            LastStatus: 'DR_DR',
            LastStatusDateTime: '2026-11-22T14:05:09+08:00',
            Activities: [
              {
                StatusDateTime: '2026-11-22T14:05:09+08:00',
                StatusCode: 'DR_DR',
                StatusDesc: 'Data Received via API',
                Remarks: '',
                ReceiveBy: '',
              },
            ],
          },
        ],
        Errors: [],
      },
    });
  });

  test('rules 1-3: each number resolved independently; misses keep Code 0; both arrays in submission order', async () => {
    const r = await lookup({ TrackingNumber: ['MISS-1', tns[2], 'MISS-2', tns[0], tns[2]] });
    expect(r.body.Code).toBe(0);
    expect(r.body.Message).toBe('Success');
    expect(r.body.Data.Success.map((s: { TrackingNumber: string }) => s.TrackingNumber)).toEqual([
      tns[2],
      tns[0],
      tns[2],
    ]);
    expect(r.body.Data.Errors).toEqual([
      { TrackingNumber: 'MISS-1', Remarks: 'No Record(s)' },
      { TrackingNumber: 'MISS-2', Remarks: 'No Record(s)' },
    ]);
  });

  test('rule 4: "Data.Success is an empty array when none matched"', async () => {
    expect((await lookup({ TrackingNumber: ['MISS'] })).body).toEqual({
      Code: 0,
      Message: 'Success',
      Data: { Success: [], Errors: [{ TrackingNumber: 'MISS', Remarks: 'No Record(s)' }] },
    });
  });

  test('rule 5: "A number belonging to another account is reported as No Record(s)"', async () => {
    const other = await tokenFor(stack, OTHER);
    const r = await clientA(stack, other).post('status/lookup', { TrackingNumber: [tns[0]] });
    expect(r.body).toEqual({
      Code: 0,
      Message: 'Success',
      Data: { Success: [], Errors: [{ TrackingNumber: tns[0], Remarks: 'No Record(s)' }] },
    });
  });

  test('"strings matched exactly, no case normalisation"', async () => {
    expect((await lookup({ TrackingNumber: [tns[0]!.toLowerCase()] })).body.Data.Success).toEqual([]);
  });

  test.each([[{}], [{ TrackingNumber: [] }], [{ TrackingNumber: null }]])(
    'rule 6: "A missing or empty TrackingNumber gives Code 1, Message TrackingNumber require, Data []": %j',
    async (body) => {
      expect((await lookup(body)).body).toEqual({ Code: 1, Message: 'TrackingNumber require', Data: [] });
    },
  );

  test.each([[{ TrackingNumber: 'PX1' }], [{ TrackingNumber: [1] }], [{ TrackingNumber: { a: 1 } }]])(
    'rule 6: "A bare string instead of an array is rejected by validation" (TrackingNumber invalid): %j',
    async (body) => {
      expect((await lookup(body)).body).toEqual({ Code: 1, Message: 'TrackingNumber invalid', Data: [] });
    },
  );

  test('"no server-side cap": 1 000 numbers in one request, all accounted for', async () => {
    const numbers = Array.from({ length: 1000 }, (_, i) => (i % 10 === 0 ? tns[i % 3]! : `MISS-${i}`));
    const r = await lookup({ TrackingNumber: numbers });
    expect(r.body.Data.Success).toHaveLength(100);
    expect(r.body.Data.Errors).toHaveLength(900);
  });
});

describe('A tracking-number lookup (decisions.md POST /api/tracking-number)', () => {
  test('Success: Data {TrackingNumber}', async () => {
    expect((await clientA(stack, token).post('tracking-number', { Barcode: refs[1] })).body).toEqual({
      Code: 0,
      Message: 'Success',
      Data: { TrackingNumber: tns[1] },
    });
  });

  test('"matched exactly (case-sensitive)"; another account; unknown: Parcel not found', async () => {
    const notFound = { Code: 1, Message: 'Parcel not found', Data: [] };
    expect((await clientA(stack, token).post('tracking-number', { Barcode: refs[1]!.toLowerCase() })).body).toEqual(
      notFound,
    );
    expect((await clientA(stack, token).post('tracking-number', { Barcode: 'NOPE' })).body).toEqual(notFound);
    const other = await tokenFor(stack, OTHER);
    expect((await clientA(stack, other).post('tracking-number', { Barcode: refs[1] })).body).toEqual(notFound);
  });

  test('"Barcode require and max size of Barcode must be 50 as for create-label"', async () => {
    expect((await clientA(stack, token).post('tracking-number', {})).body).toEqual({
      Code: 1,
      Message: 'Barcode require',
      Data: [],
    });
    expect((await clientA(stack, token).post('tracking-number', { Barcode: '   ' })).body).toEqual({
      Code: 1,
      Message: 'Barcode require',
      Data: [],
    });
    expect((await clientA(stack, token).post('tracking-number', { Barcode: 'x'.repeat(51) })).body).toEqual({
      Code: 1,
      Message: 'max size of Barcode must be 50',
      Data: [],
    });
    expect((await clientA(stack, token).post('tracking-number', { Barcode: 'x'.repeat(50) })).body.Message).toBe(
      'Parcel not found',
    );
  });
});
