/** decisions.md "Carriers report events to POST /carrier-events/{carrierCode}", pushed by the LMX sandbox. */
import { createHmac } from 'node:crypto';
import { clientA, clientB, raw, tokenFor } from '../support/client.ts';
import { pushEvent, pushRaw, registeredParcel } from '../support/carriers.ts';
import { startTestStack } from '../support/stack.ts';
import type { TestStack } from '../support/stack.ts';

let stack: TestStack;
beforeAll(async () => {
  stack = await startTestStack();
});
afterAll(() => stack.destroy());

const statusB = async (tn: string) => (await clientB(stack).get('order/query-status', { tracking_num: tn })).body.data;
const statusA = async (tn: string) =>
  (await clientA(stack, await tokenFor(stack)).post('status/lookup', { TrackingNumber: [tn] })).body.Data.Success[0];

describe('carrier events', () => {
  test('DL_DL: "receive_by and pod filled" on B; "ReceiveBy reserved; always an empty string" on A', async () => {
    const { tn, partner } = await registeredParcel(stack);
    const pushed = await pushEvent(stack, {
      partner_tracking_no: partner,
      event_code: 'DELIVERED',
      event_time: '2026-11-23T10:15:00+08:00',
      location: 'SG',
      remarks: 'Left with security',
      receive_by: 'Tan Ah Kow',
      pod: ['pod/abc.jpg'],
    });
    expect(pushed.body).toMatchObject({
      delivered: true,
      status: 200,
      response: { code: 0, message: 'success', data: { recorded: true } },
    });
    const b = await statusB(tn);
    expect(b.last_status).toBe('DL_DL');
    expect(b.last_status_date_time).toBe('2026-11-23T10:15:00+08:00');
    expect(b.activities[0]).toEqual({
      status_date_time: '2026-11-23T10:15:00+08:00',
      status_code: 'DL_DL',
      status_desc: 'Parcel delivered',
      remarks: 'Left with security',
      receive_by: 'Tan Ah Kow',
      pod: ['pod/abc.jpg'],
      location: 'SG',
    });
    const a = await statusA(tn);
    expect(a.LastStatus).toBe('DL_DL');
    expect(a.Activities[0]).toEqual({
      StatusDateTime: '2026-11-23T10:15:00+08:00',
      StatusCode: 'DL_DL',
      StatusDesc: 'Parcel delivered',
      Remarks: 'Left with security',
      ReceiveBy: '',
    });
  });

  test('FD_BA "Parcel has a bad recipient address" on both interfaces; times are shown in SGT', async () => {
    const { tn, partner } = await registeredParcel(stack);
    await pushEvent(stack, {
      partner_tracking_no: partner,
      event_code: 'BAD_ADDRESS',
      event_time: '2026-11-23T01:00:00Z',
      remarks: 'No such unit',
    });
    expect((await statusB(tn)).activities[0]).toMatchObject({
      status_code: 'FD_BA',
      status_desc: 'Parcel has a bad recipient address',
      status_date_time: '2026-11-23T09:00:00+08:00',
      receive_by: '',
      pod: [],
    });
    expect((await statusA(tn)).Activities[0]).toMatchObject({ StatusCode: 'FD_BA', Remarks: 'No such unit' });
  });

  test('"A replayed event (same carrier, number, code and time) is recorded once"', async () => {
    const { tn, partner } = await registeredParcel(stack);
    const event = { partner_tracking_no: partner, event_code: 'IN_TRANSIT', event_time: '2026-11-23T08:00:00+08:00' };
    expect((await pushEvent(stack, event)).body.response.data).toEqual({ recorded: true });
    expect((await pushEvent(stack, event)).body.response.data).toEqual({ recorded: false });
    expect((await statusB(tn)).activities.map((a: { status_code: string }) => a.status_code)).toEqual([
      'IT_IT',
      'DR_DR',
    ]);
  });

  test('"an unknown code is kept and shown as sent"', async () => {
    const { tn, partner } = await registeredParcel(stack);
    await pushEvent(stack, {
      partner_tracking_no: partner,
      event_code: 'WEATHER_DELAY',
      event_time: '2026-11-23T08:00:00+08:00',
    });
    expect((await statusB(tn)).activities[0]).toMatchObject({
      status_code: 'WEATHER_DELAY',
      status_desc: 'WEATHER_DELAY',
    });
  });

  test('a bad signature, a missing one, an unknown carrier: refused and nothing recorded', async () => {
    const { tn, partner } = await registeredParcel(stack);
    const body = JSON.stringify({
      partner_tracking_no: partner,
      event_code: 'DELIVERED',
      event_time: '2026-11-23T10:00:00+08:00',
      location: '',
      remarks: '',
      receive_by: 'X',
      pod: [],
    });
    const wrong = await pushRaw(stack, {
      body,
      signature: 'sha256=' + createHmac('sha256', 'not-the-secret').update(body).digest('hex'),
    });
    expect(wrong.body).toMatchObject({
      status: 401,
      response: { code: 1, message: 'X-Carrier-Signature: INVALID', data: [] },
    });
    expect((await pushRaw(stack, { body, signature: null })).body.status).toBe(401);
    const signedOk = 'sha256=' + createHmac('sha256', 'lmx-sandbox-secret').update(body).digest('hex');
    const unknown = await raw(`${stack.url}/carrier-events/NOPE`, {
      method: 'POST',
      headers: { 'x-carrier-signature': signedOk },
      body,
    });
    expect(unknown.status).toBe(404);
    const tampered = await raw(`${stack.url}/carrier-events/LMX`, {
      method: 'POST',
      headers: { 'x-carrier-signature': signedOk },
      body: body.replace('"X"', '"Y"'),
    });
    expect(tampered.status).toBe(401);
    expect((await statusB(tn)).activities.map((a: { status_code: string }) => a.status_code)).toEqual(['DR_DR']);
  });

  test('a well-signed but malformed event is 400; an unknown partner number is 404 No Record(s)', async () => {
    const { partner } = await registeredParcel(stack);
    const badTime = await pushEvent(stack, {
      partner_tracking_no: partner,
      event_code: 'DELIVERED',
      event_time: 'yesterday',
    });
    expect(badTime.body).toMatchObject({ status: 400, response: { code: 1, message: 'event_time invalid' } });
    const unknown = await pushEvent(stack, { partner_tracking_no: 'LMX000000000000', event_code: 'DELIVERED' });
    expect(unknown.body).toMatchObject({ status: 404, response: { code: 1, message: 'No Record(s)' } });
  });

  test('concurrency: a cancel and carrier events on one parcel at once leave one consistent history', async () => {
    for (let round = 0; round < 5; round++) {
      const { tn, partner } = await registeredParcel(stack);
      const [cancel] = await Promise.all([
        clientB(stack).post('order/cancel-orders', { tracking_nums: [tn] }),
        pushEvent(stack, {
          partner_tracking_no: partner,
          event_code: 'IN_TRANSIT',
          event_time: '2026-11-23T08:00:00+08:00',
        }),
        pushEvent(stack, {
          partner_tracking_no: partner,
          event_code: 'OUT_FOR_DELIVERY',
          event_time: '2026-11-23T09:00:00+08:00',
        }),
      ]);
      expect(cancel.body.data.success).toEqual([tn]);
      await stack.caughtUp();
      const codes = (await statusB(tn)).activities.map((a: { status_code: string }) => a.status_code).sort();
      expect(codes).toEqual(['CN_CN', 'DR_DR', 'IT_IT', 'OD_OD']);
    }
  });
});
