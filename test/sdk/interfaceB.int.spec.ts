/**
 * The client SDK: every interface B operation through InterfaceBClient against the embedded
 * stack, answers as typed values; a failure the server answered is a value too, never a throw.
 */
import { createHash } from 'node:crypto';
import { InterfaceBClient, signature } from '@parcel-logistics/client';
import type { StatusRecordB } from '@parcel-logistics/client';
import { SAMPLE } from '@parcel-logistics/contracts/api';
import { registeredParcel } from '../support/carriers.ts';
import { csvOf, orderBody } from '../support/orders.ts';
import { optionsFor, order, recordingFetch, useStackWithClientB, businessError } from './support.ts';

const b = useStackWithClientB();

/** A new parcel's reference and tracking number. */
async function created(): Promise<{ ref: string; tn: string }> {
  const body = order();
  const result = await b.client.createOrder(body);
  if (!result.ok) throw new Error(`create-order: ${JSON.stringify(result.error)}`);
  return { ref: body.custom_tracking_num, tn: result.data.wmg_tracking_num };
}

test('B1 create-order: {ok: true, data} with the platform number, sent with an Idempotency-Key of its own', async () => {
  const recorder = recordingFetch();
  const body = order();
  const result = await new InterfaceBClient(optionsFor(b.stack, { fetch: recorder.fetch })).createOrder(body);
  expect(result).toEqual({
    ok: true,
    data: {
      custom_tracking_num: body.custom_tracking_num,
      wmg_tracking_num: expect.stringMatching(/^PX[0-9A-Z]{16}$/),
      date_time: '2026-11-22T14:05:09+08:00',
      status: '',
      error: [],
    },
    meta: { status: 200, attempts: 1, replayed: false, idempotencyKey: expect.stringMatching(/^[0-9a-f-]{36}$/) },
  });
  expect(recorder.sent).toHaveLength(1);
  expect(recorder.sent[0]!.headers['idempotency-key']).toBe(result.ok && result.meta.idempotencyKey);
});

test('B1 every request is signed: x-auth-token = md5(lower(apiName) + apiKey + seed), the seed the 13-digit time', async () => {
  const recorder = recordingFetch();
  const now = b.stack.clock.now().getTime();
  const result = await new InterfaceBClient(optionsFor(b.stack, { fetch: recorder.fetch })).getStations('238858');
  expect(result.ok).toBe(true);
  const seed = String(now);
  expect(recorder.sent[0]!.headers).toMatchObject({
    'x-auth-name': 'demo',
    'x-auth-seed': seed,
    'x-auth-token': createHash('md5').update(`demodemo-secret${seed}`).digest('hex'),
  });
  // The worked example of the reference, with the name lower-cased first.
  expect(signature('DEMO', 'demo-secret', SAMPLE.seed)).toBe(SAMPLE.token);
});

test('B1 a business error is a value with the exact message: recipient_country(ZZ) not allow', async () => {
  const result = await b.client.createOrder(order({ recipient_country: 'ZZ' }));
  expect(result).toEqual({ ok: false, error: businessError('recipient_country(ZZ) not allow') });
});

test('B1 a wrong API key is the business error "x-auth-token: INVALID"', async () => {
  const result = await new InterfaceBClient(optionsFor(b.stack, { apiKey: 'not-the-key' })).getStations('238858');
  expect(result.ok || result.error).toMatchObject({ kind: 'business', code: 1, message: 'x-auth-token: INVALID' });
});

test('B2 create-orders is off by default: "Api not found" as a business error', async () => {
  const result = await b.client.createOrders([order()]);
  expect(result.ok || result.error).toMatchObject({ kind: 'business', message: 'Api not found' });
});

test('import-orders: the CSV file is sent as text/csv with an Idempotency-Key; waitForImport reads until finished', async () => {
  const recorder = recordingFetch();
  const client = new InterfaceBClient(optionsFor(b.stack, { fetch: recorder.fetch }));
  const file = csvOf([orderBody(), orderBody({ recipient_phone: 'abc' })]);
  const started = await client.importOrders(file);
  expect(started.ok && started.data).toMatchObject({ state: 'running', rows: 2, accepted: 1, rejected: 1 });
  expect(recorder.sent[0]!.headers['content-type']).toBe('text/csv');
  expect(recorder.sent[0]!.headers['idempotency-key']).toMatch(/^[0-9a-f-]{36}$/);
  const seen: string[] = [];
  const finished = await client.waitForImport(started.ok ? started.data.import_id : '', {
    intervalMs: 20,
    onProgress: (p) => seen.push(p.state),
  });
  expect(finished.ok && finished.data).toMatchObject({ state: 'finished', created: 1, rejected: 1 });
  expect(seen.at(-1)).toBe('finished');
  const unknown = await client.getImport('00000000-0000-4000-8000-000000000000');
  expect(unknown.ok ? unknown.data : unknown.error.message).toBe('Import not found');
});

test('manifests: createManifest closes the registered parcel (PDF and CSV), getManifest and listManifests read it again; it can no longer be cancelled', async () => {
  const { tn } = await registeredParcel(b.stack);
  const made = await b.client.createManifest('LMX');
  if (!made.ok) throw new Error(JSON.stringify(made.error));
  expect(made.data.tracking_numbers).toContain(tn);
  expect(Buffer.from(made.data.pdf, 'base64').subarray(0, 5).toString()).toBe('%PDF-');
  expect(made.data.csv.split('\r\n').some((line) => line.startsWith(`${tn},`))).toBe(true);
  const again = await b.client.getManifest(made.data.manifest_id);
  // The PDF is rendered again on each read (its creation time differs); the rest is the same.
  const { pdf: _made, ...madeRest } = made.data;
  expect(again.ok && { ...again.data, pdf: undefined }).toEqual({ ...madeRest, pdf: undefined });
  const listed = await b.client.listManifests({ carrier: 'LMX', limit: 1 });
  expect(listed.ok && listed.data.map((m) => m.manifest_id)).toEqual([made.data.manifest_id]);
  const cancel = await b.client.cancelOrders([tn]);
  expect(cancel.ok && cancel.data.errors).toEqual([{ tracking_number: tn, remarks: 'On Manifest' }]);
  const none = await b.client.createManifest('LMX');
  expect(none.ok ? none.data : none.error.message).toBe('No parcels to close for this carrier');
});

test('B3 query-status: the record of a new parcel (DR_DR); an unknown number is "fail" with the miss as data', async () => {
  const { tn } = await created();
  const found = await b.client.queryStatus(tn);
  if (!found.ok) throw new Error(found.error.message);
  const record: StatusRecordB = found.data;
  expect(record.tracking_number).toBe(tn);
  expect(record.last_status).toBe('DR_DR');
  expect(record.activities.map((a) => a.status_code)).toEqual(['DR_DR']);

  const missing = await b.client.queryStatus('PXB3X6H0NEVAZ2J9R9');
  expect(missing).toEqual({
    ok: false,
    error: {
      kind: 'business',
      code: 1,
      message: 'fail',
      status: 200,
      data: { tracking_number: 'PXB3X6H0NEVAZ2J9R9', remarks: 'No Record(s)' },
      attempts: 1,
    },
  });
});

test('B4 query-multi-status: found numbers in success, the others in errors, and the call succeeds', async () => {
  const { tn } = await created();
  const result = await b.client.queryMultiStatus([tn, 'PXB3X6H0NEVAZ2J9R9']);
  if (!result.ok) throw new Error(result.error.message);
  expect(result.data.success.map((r) => r.tracking_number)).toEqual([tn]);
  expect(result.data.errors).toEqual([{ tracking_number: 'PXB3X6H0NEVAZ2J9R9', remarks: 'No Record(s)' }]);
});

test('B5 get-stations: the stations near 637586, nearest first', async () => {
  const result = await b.client.getStations('637586');
  if (!result.ok) throw new Error(result.error.message);
  expect(result.data[0]).toEqual({
    Zipcode: '637586',
    Station_Name: 'Tuas South Collection Point',
    Station_Address: '10 Tuas South Avenue 2',
    Address_Detail: 'Level 1 canteen',
    Distance: 0,
    Station_Code: 'SGL0150',
  });
  const distances = result.data.map((s) => s.Distance);
  expect(distances).toEqual([...distances].sort((a, b) => a - b));
});

test('B6 cancel-orders: the parcel is cancelled (CN_CN); cancelling it again answers "Canceled" in errors', async () => {
  const { tn } = await created();
  await b.stack.caughtUp();
  const first = await b.client.cancelOrders([tn]);
  expect(first.ok && first.data).toEqual({ success: [tn], errors: [] });
  const status = await b.client.queryStatus(tn);
  expect(status.ok && status.data.last_status).toBe('CN_CN');
  const again = await b.client.cancelOrders([tn]);
  expect(again.ok && again.data).toEqual({ success: [], errors: [{ tracking_number: tn, remarks: 'Canceled' }] });
});

test('erase-personal-data: erased (and again), the label then refused as a business error', async () => {
  const { tn } = await created();
  await b.stack.caughtUp();
  const first = await b.client.erasePersonalData([tn]);
  expect(first.ok && first.data).toEqual({ success: [tn], errors: [] });
  const again = await b.client.erasePersonalData([tn]);
  expect(again.ok && again.data).toEqual({ success: [tn], errors: [] });
  const label = await b.client.getShippingLabel(tn);
  expect(label.ok).toBe(false);
  expect(!label.ok && label.error.message).toBe('Personal data erased');
});

test('B7/B8/B9 the shipping label as a PDF, HTML and ZPL', async () => {
  const { tn } = await created();
  const pdf = await b.client.getShippingLabel(tn);
  if (!pdf.ok) throw new Error(pdf.error.message);
  expect(Buffer.from(pdf.data.base64, 'base64').subarray(0, 5).toString('latin1')).toBe('%PDF-');
  const html = await b.client.getShippingLabelHtml(tn);
  if (!html.ok) throw new Error(html.error.message);
  expect(html.data.html).toMatch(/^<!doctype html>/i);
  expect(html.data.html).toContain(tn);
  const zpl = await b.client.getShippingLabelZpl(tn);
  if (!zpl.ok) throw new Error(zpl.error.message);
  expect(zpl.data.zpl).toMatch(/^\^XA[\s\S]*\^XZ\s*$/);
  expect(zpl.data.zpl).toContain(tn);
});

test('B7 a label of a number the account does not have is "Order Not Found!"', async () => {
  const result = await b.client.getShippingLabel('PXB3X6H0NEVAZ2J9R9');
  expect(result.ok || result.error).toMatchObject({ kind: 'business', message: 'Order Not Found!' });
});

test('get-shipping-labels: many labels in one PDF or ZPL, the others in errors, retried under one Idempotency-Key', async () => {
  const [first, second] = [(await created()).tn, (await created()).tn];
  const pdf = await b.client.getShippingLabels([first, 'PXB3X6H0NEVAZ2J9R9', second], { layout: 'a4-4up' });
  if (!pdf.ok) throw new Error(pdf.error.message);
  expect(pdf.data).toEqual({
    base64: expect.any(String),
    labels: [first, second],
    errors: [{ tracking_number: 'PXB3X6H0NEVAZ2J9R9', remarks: 'Order Not Found!' }],
  });
  expect(Buffer.from(pdf.data.base64!, 'base64').subarray(0, 5).toString('latin1')).toBe('%PDF-');
  expect(pdf.meta.idempotencyKey).toMatch(/^[0-9a-f-]{36}$/);
  const zpl = await b.client.getShippingLabels([second, first], { format: 'zpl' });
  if (!zpl.ok) throw new Error(zpl.error.message);
  expect(zpl.data.labels).toEqual([second, first]);
  expect(zpl.data.zpl!.match(/\^XA[\s\S]*?\^XZ/g)).toHaveLength(2);
  const a4Zpl = await b.client.getShippingLabels([first], { format: 'zpl', layout: 'a4-4up' });
  expect(a4Zpl.ok || a4Zpl.error).toMatchObject({ kind: 'business', message: 'layout (a4-4up) needs format pdf' });
});

test('B10 get-barcode: the tracking number of a reference; an unknown reference is "Order Not Found!"', async () => {
  const { ref, tn } = await created();
  expect(await b.client.getBarcode(ref)).toMatchObject({ ok: true, data: { barcode: tn } });
  const unknown = await b.client.getBarcode('NO-SUCH-REF');
  expect(unknown.ok || unknown.error).toMatchObject({ kind: 'business', message: 'Order Not Found!' });
});

test('an HTTP system error is kind "http" with the envelope: 404 "Api not found" on a base URL with a wrong prefix', async () => {
  const result = await new InterfaceBClient(optionsFor(b.stack, { baseUrl: `${b.stack.url}/nowhere` })).getStations(
    '238858',
  );
  expect(result).toEqual({
    ok: false,
    error: { kind: 'http', code: 1, message: 'Api not found', status: 404, data: [], attempts: 1 },
  });
});
