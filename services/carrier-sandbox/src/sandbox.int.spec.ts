/** decisions.md "Carriers, cancellation and carrier events": the LMX sandbox's own HTTP API. */
import { createCarrierSandbox } from './sandbox.ts';
import { listeningSandbox } from '../test/listening.ts';

const lmx = listeningSandbox();

async function post(path: string, body: unknown) {
  const r = await fetch(lmx.url() + path, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
  return { status: r.status, body: (await r.json()) as Record<string, unknown> };
}

const shipment = {
  tracking_number: 'PX-S-1',
  carrier: 'LMX',
  recipient_country: 'SG',
  postal_code: '048616',
  recipient_name: 'Tan Ah Kow',
  instruction: '',
};

test('GET /healthz; unknown paths and methods: 404', async () => {
  expect((await fetch(`${lmx.url()}/healthz`)).status).toBe(200);
  expect((await fetch(`${lmx.url()}/readyz`)).status).toBe(200);
  expect((await fetch(`${lmx.url()}/v1/shipments`)).status).toBe(404);
  expect((await post('/v1/nothing', {})).status).toBe(404);
});

test('registration is idempotent by tracking_number', async () => {
  const a = await post('/v1/shipments', shipment);
  expect(a).toEqual({
    status: 200,
    body: { partner_tracking_no: expect.stringMatching(/^LMX[0-9A-Z]{12}$/), partner_name: 'LMX Express' },
  });
  expect(await post('/v1/shipments', { ...shipment, instruction: '[sandbox:picked-up]' })).toEqual(a);
  expect(lmx.sandbox().state.shipments.get(a.body.partner_tracking_no as string)).toMatchObject({
    trackingNumber: 'PX-S-1',
    pickedUp: false,
  });
});

test('[sandbox:no-partner] keeps no record', async () => {
  const before = lmx.sandbox().state.shipments.size;
  const r = await post('/v1/shipments', {
    ...shipment,
    tracking_number: 'PX-S-NP',
    instruction: 'ring twice [sandbox:no-partner]',
  });
  expect(r).toEqual({
    status: 200,
    body: { partner_tracking_no: null, partner_name: 'LMX Express', message: 'Shipment not registered' },
  });
  expect(lmx.sandbox().state.shipments.size).toBe(before);
});

test.each([
  ['not JSON', '{', 'Invalid JSON body'],
  ['an array', '[]', 'Invalid JSON body'],
  ['no tracking_number', { ...shipment, tracking_number: undefined }, 'tracking_number require'],
  ['another carrier', { ...shipment, carrier: 'GLX' }, 'carrier invalid'],
  ['a lower-case country', { ...shipment, recipient_country: 'sg' }, 'recipient_country invalid'],
  ['an empty recipient', { ...shipment, recipient_name: ' ' }, 'recipient_name invalid'],
])('shipment with %s: 400', async (_, body, message) => {
  expect(await post('/v1/shipments', body)).toEqual({ status: 400, body: { message } });
});

test('a batch registration answers each shipment as its own registration would, in request order', async () => {
  const earlier = await post('/v1/shipments', { ...shipment, tracking_number: 'PX-SB-1' });
  const before = lmx.sandbox().state.shipments.size;
  const r = await post('/v1/shipments/batch', {
    shipments: [
      { ...shipment, tracking_number: 'PX-SB-2' },
      { ...shipment, tracking_number: 'PX-SB-3', instruction: '[sandbox:no-partner]' },
      { ...shipment, tracking_number: 'PX-SB-4', carrier: 'GLX' },
      'not a shipment',
      { ...shipment, tracking_number: 'PX-SB-1' },
    ],
  });
  expect(r).toEqual({
    status: 200,
    body: {
      results: [
        {
          tracking_number: 'PX-SB-2',
          status: 200,
          partner_tracking_no: expect.stringMatching(/^LMX[0-9A-Z]{12}$/),
          partner_name: 'LMX Express',
        },
        {
          tracking_number: 'PX-SB-3',
          status: 200,
          partner_tracking_no: null,
          partner_name: 'LMX Express',
          message: 'Shipment not registered',
        },
        { tracking_number: 'PX-SB-4', status: 400, message: 'carrier invalid' },
        { tracking_number: null, status: 400, message: 'Invalid JSON body' },
        { tracking_number: 'PX-SB-1', status: 200, ...earlier.body },
      ],
    },
  });
  // Only PX-SB-2 is new.
  expect(lmx.sandbox().state.shipments.size).toBe(before + 1);
});

test.each([
  ['not JSON', '{', 'Invalid JSON body'],
  ['an array', '[]', 'Invalid JSON body'],
  ['no shipments', {}, 'shipments require'],
  ['shipments not a list', { shipments: shipment }, 'shipments invalid'],
  ['an empty list', { shipments: [] }, 'shipments invalid'],
  ['101 shipments', { shipments: Array.from({ length: 101 }, () => shipment) }, 'shipments invalid'],
])('batch registration with %s: 400, nothing registered', async (_, body, message) => {
  const before = lmx.sandbox().state.shipments.size;
  expect(await post('/v1/shipments/batch', body)).toEqual({ status: 400, body: { message } });
  expect(lmx.sandbox().state.shipments.size).toBe(before);
});

test('cancellations answer in request order; a rejecting parcel fails the whole batch', async () => {
  const no = async (tn: string, instruction = '') =>
    (await post('/v1/shipments', { ...shipment, tracking_number: tn, instruction })).body.partner_tracking_no as string;
  const [a, b, c] = [
    await no('PX-K-1'),
    await no('PX-K-2', '[sandbox:picked-up]'),
    await no('PX-K-3', '[sandbox:cancel-reject]'),
  ];
  expect(await post('/v1/cancellations', { partner_tracking_nos: [a, c] })).toEqual({
    status: 422,
    body: { message: 'Cancel batch rejected' },
  });
  expect(lmx.sandbox().state.shipments.get(a)?.cancelled).toBe(false);
  expect(await post('/v1/cancellations', { partner_tracking_nos: ['LMXNOPE', b, a, a] })).toEqual({
    status: 200,
    body: {
      results: [
        { partner_tracking_no: 'LMXNOPE', cancelled: false, message: 'Shipment not found' },
        { partner_tracking_no: b, cancelled: false, message: 'Parcel already picked up' },
        { partner_tracking_no: a, cancelled: true, message: 'Cancelled' },
        { partner_tracking_no: a, cancelled: true, message: 'Cancelled' },
      ],
    },
  });
  expect(await post('/v1/cancellations', { partner_tracking_nos: [] })).toEqual({
    status: 400,
    body: { message: 'partner_tracking_nos invalid' },
  });
  expect(await post('/v1/cancellations', {})).toEqual({
    status: 400,
    body: { message: 'partner_tracking_nos require' },
  });
});

test('events: 503 without a callback URL, 502 when the callback is unreachable', async () => {
  const event = { partner_tracking_no: 'LMX1', event_code: 'PICKED_UP' };
  expect(await post('/v1/sandbox/events', event)).toEqual({
    status: 503,
    body: { message: 'No callback URL configured' },
  });
  expect(await post('/v1/sandbox/events', { event_code: 'PICKED_UP' })).toEqual({
    status: 400,
    body: { message: 'partner_tracking_no require' },
  });

  const closed = createCarrierSandbox({ secret: 's' });
  const deadUrl = (await closed.listen(0)).url;
  await closed.close();
  const pusher = createCarrierSandbox({ secret: 's', callbackUrl: deadUrl });
  try {
    const r = await fetch(`${(await pusher.listen(0)).url}/v1/sandbox/events`, {
      method: 'POST',
      body: JSON.stringify(event),
    });
    expect(r.status).toBe(502);
    expect(await r.json()).toEqual({ delivered: false, status: null, response: 'ECONNREFUSED' });
    expect(pusher.state.pushed).toHaveLength(1);
  } finally {
    await pusher.close();
  }
});
