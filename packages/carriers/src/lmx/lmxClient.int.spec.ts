/** B6 cancel-orders and decisions.md "Carriers, cancellation and carrier events": the LMX adapter against the real sandbox. */
import { createServer } from 'node:http';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createCarrierSandbox } from '@parcel-logistics/carrier-sandbox';
import type { CarrierClient, RegisterResult, ShipmentToRegister } from '../port.ts';
import { createLmxClient } from './lmxClient.ts';
import { listeningSandbox } from '@parcel-logistics/carrier-sandbox/testing';

const shipment = (trackingNumber: string, instruction = ''): ShipmentToRegister => ({
  trackingNumber,
  carrier: 'LMX',
  recipientCountry: 'SG',
  postalCode: '048616',
  recipientName: 'Tan Ah Kow',
  instruction,
});

const lmx = listeningSandbox();

/** One shipment's registration, in a batch of its own. */
const registerOne = async (client: CarrierClient, s: ShipmentToRegister): Promise<RegisterResult> => {
  const results = await client.register([s]);
  expect(results).toHaveLength(1);
  return results[0]!;
};

async function registered(trackingNumber: string, instruction = ''): Promise<string> {
  const r = await registerOne(createLmxClient({ baseUrl: lmx.url() }), shipment(trackingNumber, instruction));
  if (!r.ok) throw new Error(r.reason);
  return r.partnerTrackingNo;
}

test('register gives an LMX number and "LMX Express"; a repeat gives the same number', async () => {
  const client = createLmxClient({ baseUrl: lmx.url() });
  const first = await registerOne(client, shipment('PX-REG-1'));
  expect(first).toEqual({
    ok: true,
    partnerTrackingNo: expect.stringMatching(/^LMX[0-9A-Z]{12}$/),
    partnerName: 'LMX Express',
  });
  expect(await registerOne(client, shipment('PX-REG-1'))).toEqual(first);
  expect(lmx.sandbox().state.shipments.size).toBeGreaterThan(0);
});

test('[sandbox:no-partner]: permanent failure, carrier holds no tracking number', async () => {
  const r = await registerOne(
    createLmxClient({ baseUrl: lmx.url() }),
    shipment('PX-NP-1', 'leave at door [sandbox:no-partner]'),
  );
  expect(r).toEqual({ ok: false, permanent: true, reason: 'carrier holds no tracking number' });
});

test('a shipment the carrier refuses (4xx) is a permanent failure with its message', async () => {
  const r = await registerOne(createLmxClient({ baseUrl: lmx.url() }), { ...shipment('PX-BAD-1'), carrier: 'USX' });
  expect(r).toEqual({ ok: false, permanent: true, reason: 'carrier answered HTTP 400: carrier invalid' });
});

test('a batch is answered shipment by shipment, in order, as each alone would be', async () => {
  const client = createLmxClient({ baseUrl: lmx.url() });
  const earlier = await registerOne(client, shipment('PX-B-1'));
  const results = await client.register([
    shipment('PX-B-2'),
    shipment('PX-B-3', '[sandbox:no-partner]'),
    { ...shipment('PX-B-4'), carrier: 'USX' },
    shipment('PX-B-1'),
  ]);
  expect(results).toEqual([
    { ok: true, partnerTrackingNo: expect.stringMatching(/^LMX[0-9A-Z]{12}$/), partnerName: 'LMX Express' },
    { ok: false, permanent: true, reason: 'carrier holds no tracking number' },
    { ok: false, permanent: true, reason: 'carrier answered HTTP 400: carrier invalid' },
    earlier,
  ]);
  expect(await client.register([])).toEqual([]);
});

test('cancel: cancelled, picked-up message passed through, unknown number; a second cancel is cancelled again', async () => {
  const plain = await registered('PX-C-1');
  const pickedUp = await registered('PX-C-2', '[sandbox:picked-up]');
  const client = createLmxClient({ baseUrl: lmx.url() });
  const r = await client.cancel([plain, pickedUp, 'LMX000000000000']);
  expect(r).toEqual({
    ok: true,
    outcomes: new Map([
      [plain, { cancelled: true }],
      [pickedUp, { cancelled: false, message: 'Parcel already picked up' }],
      ['LMX000000000000', { cancelled: false, message: 'Shipment not found' }],
    ]),
  });
  expect(await client.cancel([plain])).toEqual({ ok: true, outcomes: new Map([[plain, { cancelled: true }]]) });
});

test('[sandbox:cancel-reject]: the whole batch fails (422) and nothing is cancelled', async () => {
  const plain = await registered('PX-R-1');
  const rejecting = await registered('PX-R-2', '[sandbox:cancel-reject]');
  const r = await createLmxClient({ baseUrl: lmx.url() }).cancel([plain, rejecting]);
  expect(r).toEqual({ ok: false, reason: 'carrier answered HTTP 422: Cancel batch rejected' });
  expect(lmx.sandbox().state.shipments.get(plain)?.cancelled).toBe(false);
});

test('an empty cancel asks nothing', async () => {
  expect(await createLmxClient({ baseUrl: 'http://127.0.0.1:1' }).cancel([])).toEqual({
    ok: true,
    outcomes: new Map(),
  });
});

test('outage: a closed sandbox is a transient failure; a new sandbox on the same port serves again', async () => {
  const down = createCarrierSandbox({ secret: 's' });
  const { url: downUrl } = await down.listen(0);
  const client = createLmxClient({ baseUrl: downUrl });
  expect((await registerOne(client, shipment('PX-O-1'))).ok).toBe(true);
  await down.close();

  const r = await registerOne(client, shipment('PX-O-2'));
  // Refused, or reset on a kept-alive socket the close cut: either way unreachable.
  expect(r).toEqual({ ok: false, permanent: false, reason: expect.stringMatching(/^carrier unreachable: /) });
  expect(await client.cancel(['LMX000000000001'])).toEqual({
    ok: false,
    reason: expect.stringMatching(/^carrier unreachable: /),
  });

  const up = createCarrierSandbox({ secret: 's' });
  try {
    expect((await up.listen(Number(new URL(downUrl).port))).url).toBe(downUrl);
    expect(await registerOne(client, shipment('PX-O-2'))).toMatchObject({ ok: true });
  } finally {
    await up.close();
  }
});

describe('a carrier that fails', () => {
  let stub: Server;
  let stubUrl: string;
  let answer: { status: number; body: string } | 'never' | 'echo' = 'never';
  /** The shipments of each registration request the stub was sent. */
  let asked: string[][] = [];
  beforeAll(async () => {
    stub = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        if (answer === 'never') return;
        if (answer !== 'echo')
          return void res.writeHead(answer.status, { 'content-type': 'application/json' }).end(answer.body);
        // A carrier that registers every shipment it is sent.
        const numbers = (
          JSON.parse(Buffer.concat(chunks).toString()) as { shipments: { tracking_number: string }[] }
        ).shipments.map((s) => s.tracking_number);
        asked.push(numbers);
        const results = numbers.map((n, i) => ({
          tracking_number: n,
          status: 200,
          partner_tracking_no: `LMX${String(i).padStart(12, '0')}`,
          partner_name: 'LMX Express',
        }));
        res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ results }));
      });
    });
    await new Promise<void>((resolve) => stub.listen(0, '127.0.0.1', resolve));
    stubUrl = `http://127.0.0.1:${(stub.address() as AddressInfo).port}`;
  });
  afterAll(() => {
    stub.closeAllConnections();
    return new Promise((resolve) => stub.close(resolve));
  });

  test('no answer within the timeout: transient', async () => {
    answer = 'never';
    const client = createLmxClient({ baseUrl: stubUrl, timeoutMs: 50 });
    expect(await registerOne(client, shipment('PX-T-1'))).toEqual({
      ok: false,
      permanent: false,
      reason: 'no answer within 50 ms',
    });
    expect(await client.cancel(['LMX1'])).toEqual({ ok: false, reason: 'no answer within 50 ms' });
  });

  test.each([
    [503, '{"message":"maintenance"}', false],
    [502, '<html>bad gateway</html>', false],
    [429, '{}', false],
    [200, '{"unexpected":true}', false],
    [404, '{"message":"no such route"}', true],
  ])('HTTP %i %s: every shipment of the request failed, permanent %p', async (status, body, permanent) => {
    answer = { status, body };
    const client = createLmxClient({ baseUrl: stubUrl });
    // A request that fails fails every shipment in it.
    const results = await client.register([shipment('PX-F-1'), shipment('PX-F-2')]);
    expect(results).toHaveLength(2);
    expect(results[0]).toMatchObject({ ok: false, permanent });
    expect(results[1]).toEqual(results[0]);
    expect(await client.cancel(['LMX1'])).toMatchObject({ ok: false });
  });

  test('150 shipments go in two requests, of 100 and 50, and are answered in order', async () => {
    answer = 'echo';
    asked = [];
    const numbers = Array.from({ length: 150 }, (_, i) => `PX-M-${i}`);
    const results = await createLmxClient({ baseUrl: stubUrl }).register(numbers.map((n) => shipment(n)));
    expect(asked).toEqual([numbers.slice(0, 100), numbers.slice(100)]);
    expect(results.map((r) => r.ok && r.partnerTrackingNo)).toEqual(
      numbers.map((_, i) => `LMX${String(i % 100).padStart(12, '0')}`),
    );
  });

  test.each([
    [
      'answers another shipment',
      '{"results":[{"tracking_number":"PX-X","status":200,"partner_tracking_no":"LMX1","partner_name":"LMX Express"}]}',
    ],
    ['answers none', '{"results":[]}'],
    [
      'leaves out the partner name',
      '{"results":[{"tracking_number":"PX-U-1","status":200,"partner_tracking_no":"LMX1"}]}',
    ],
  ])('a batch answer that %s is a transient failure', async (_, body) => {
    answer = { status: 200, body };
    expect(await createLmxClient({ baseUrl: stubUrl }).register([shipment('PX-U-1')])).toEqual([
      { ok: false, permanent: false, reason: 'unexpected carrier response' },
    ]);
  });

  test('a cancel answer missing a number asked is a failed batch', async () => {
    answer = {
      status: 200,
      body: '{"results":[{"partner_tracking_no":"LMX1","cancelled":true,"message":"Cancelled"}]}',
    };
    expect(await createLmxClient({ baseUrl: stubUrl }).cancel(['LMX1', 'LMX2'])).toEqual({
      ok: false,
      reason: 'carrier answered for only part of the batch',
    });
  });
});
