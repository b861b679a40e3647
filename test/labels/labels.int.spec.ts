/** A2 create-label and B7-B9 shipping labels over HTTP on the embedded wiring. */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { clientA, clientB, OTHER, tokenFor } from '../support/client.ts';
import { orderBody } from '../support/orders.ts';
import { startTestStack } from '../support/stack.ts';
import type { TestStack } from '../support/stack.ts';

let stack: TestStack;
let token: string;
let tn: string;
let work: string;
beforeAll(async () => {
  stack = await startTestStack();
  token = await tokenFor(stack);
  tn = (await clientB(stack).post('order/create-order', orderBody({ sender_country: 'MY', recipient_country: 'SG' })))
    .body.data.wmg_tracking_num;
  work = mkdtempSync(path.join(tmpdir(), 'labels-'));
});
afterAll(async () => {
  await stack.destroy();
  rmSync(work, { recursive: true, force: true });
});

const createLabel = (body: Record<string, unknown>, t = token) => clientA(stack, t).post('create-label', body);
const valid = () => ({ Barcode: tn, LabelType: 'CN23', Origin: 'MY', Destination: 'SG' });
const failure = (Message: string) => ({ Code: 1, Message, Data: [] });

describe('A2 create-label', () => {
  test('"Success: HTTP 200, Code 0, Message Success, Data = { Base64 } holding the complete label as a Base64-encoded PDF"', async () => {
    const r = await createLabel(valid());
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ Code: 0, Message: 'Success', Data: { Base64: expect.any(String) } });
    const pdf = Buffer.from(r.body.Data.Base64, 'base64');
    expect(pdf.subarray(0, 5).toString()).toBe('%PDF-');
    const file = path.join(work, 'cn23.pdf');
    writeFileSync(file, pdf);
    execFileSync('qpdf', ['--check', file]);
    // Default Direction horizontal: landscape A4.
    expect(execFileSync('pdfinfo', [file]).toString()).toMatch(/Page size:\s+841\.\d+ x 595\.\d+ pts/);
  });

  test('"Direction vertical": portrait A4', async () => {
    const r = await createLabel({ ...valid(), Direction: 'vertical' });
    const file = path.join(work, 'cn23-v.pdf');
    writeFileSync(file, Buffer.from(r.body.Data.Base64, 'base64'));
    expect(execFileSync('pdfinfo', [file]).toString()).toMatch(/Page size:\s+595\.\d+ x 841\.\d+ pts/);
  });

  test('"Generating a label records a label event": LB_GN visible at once in A1, B3 and B4', async () => {
    const fresh = (await clientB(stack).post('order/create-order', orderBody())).body.data.wmg_tracking_num;
    expect((await createLabel({ Barcode: fresh, LabelType: 'CN23', Origin: 'SG', Destination: 'SG' })).body.Code).toBe(
      0,
    );
    const a1 = await clientA(stack, token).post('status/lookup', { TrackingNumber: [fresh] });
    expect(a1.body.Data.Success[0].Activities[0]).toMatchObject({
      StatusCode: 'LB_GN',
      StatusDesc: 'Shipping label generated',
    });
    expect((await clientB(stack).get('order/query-status', { tracking_num: fresh })).body.data.last_status).toBe(
      'LB_GN',
    );
    expect(
      (await clientB(stack).post('order/query-multi-status', { tracking_nums: [fresh] })).body.data.success[0]
        .last_status,
    ).toBe('LB_GN');
  });

  test('"Barcode ... upper-cased before matching"; Origin and Destination "matched exactly as sent"', async () => {
    expect((await createLabel({ ...valid(), Barcode: tn.toLowerCase() })).body.Code).toBe(0);
    expect((await createLabel({ ...valid(), Origin: 'my' })).body).toEqual(failure('Parcel not found'));
    expect((await createLabel({ ...valid(), Destination: 'MY' })).body).toEqual(failure('Parcel not found'));
  });

  test('"LabelType ... validated for length only and does not change the label"', async () => {
    expect((await createLabel({ ...valid(), LabelType: 'ANYTHING' })).body.Code).toBe(0);
  });

  test.each([
    [{ Barcode: undefined }, 'Barcode require'],
    [{ Barcode: '' }, 'Barcode require'],
    [{ Barcode: 'X'.repeat(51) }, 'max size of Barcode must be 50'],
    [{ LabelType: undefined }, 'LabelType require'],
    [{ LabelType: ' ' }, 'LabelType require'],
    [{ LabelType: 'X'.repeat(11) }, 'max size of LabelType must be 10'],
    [{ Origin: undefined }, 'Origin require'],
    [{ Origin: 'MYS' }, 'max size of Origin must be 2'],
    [{ Destination: undefined }, 'Destination require'],
    [{ Destination: 'SGP' }, 'max size of Destination must be 2'],
    [{ Direction: 'diagonal' }, 'Error encountered, please contact support@parcel.example'],
    [{ Barcode: 'PXNOPE' }, 'Parcel not found'],
  ])('spec Errors table, interface A: %j -> %s', async (overrides, message) => {
    const body: Record<string, unknown> = { ...valid(), ...overrides };
    for (const k of Object.keys(body)) if (body[k] === undefined) delete body[k];
    const r = await createLabel(body);
    expect(r.status).toBe(200);
    expect(r.body).toEqual(failure(message));
  });

  test('"The package cannot undergo this operation" for a self-label (SLF) parcel, and no event is recorded', async () => {
    const slf = (await clientB(stack).post('order/create-order', orderBody({ service_type: 'SLF' }))).body.data
      .wmg_tracking_num;
    expect((await createLabel({ Barcode: slf, LabelType: 'CN23', Origin: 'SG', Destination: 'SG' })).body).toEqual(
      failure('The package cannot undergo this operation'),
    );
    expect((await clientB(stack).get('order/query-status', { tracking_num: slf })).body.data.last_status).toBe('DR_DR');
  });

  test("another account's parcel: Parcel not found; no token: 1003", async () => {
    expect((await createLabel(valid(), await tokenFor(stack, OTHER))).body).toEqual(failure('Parcel not found'));
    expect((await clientA(stack, undefined).post('create-label', valid())).body).toEqual({
      Code: 1003,
      Message: 'Token error',
      Data: [],
    });
  });
});

describe('B7 / B8 / B9 shipping labels', () => {
  test('B7 "data = { base64 }", a PDF whose Code 128 decodes to the tracking number (zbarimg)', async () => {
    const r = await clientB(stack).get('order-shipping-label/get-shipping-label', { tracking_num: tn });
    expect(r.body).toMatchObject({ code: 0, message: 'success', data: { base64: expect.any(String) } });
    const file = path.join(work, 'label.pdf');
    writeFileSync(file, Buffer.from(r.body.data.base64, 'base64'));
    execFileSync('qpdf', ['--check', file]);
    execFileSync('pdftoppm', ['-r', '300', '-png', '-singlefile', file, path.join(work, 'label')]);
    const decoded = execFileSync('zbarimg', ['-q', path.join(work, 'label.png')]).toString();
    expect(decoded).toContain(`CODE-128:${tn}`);
    expect(decoded).toContain(`QR-Code:${tn}`);
  });

  test('B8 "data = { html }, a full HTML label document"; B9 "data = { zpl }, a full ZPL label string"', async () => {
    const html = await clientB(stack).get('order-shipping-label/get-shipping-label-html', { tracking_num: tn });
    expect(html.body.code).toBe(0);
    expect(html.body.data.html).toMatch(/^<!DOCTYPE html>/i);
    expect(html.body.data.html).toContain(tn);
    const zpl = await clientB(stack).get('order-shipping-label/get-shipping-label-zpl', { tracking_num: tn });
    expect(zpl.body.code).toBe(0);
    expect(zpl.body.data.zpl.trim()).toMatch(/^\^XA[\s\S]*\^XZ$/);
  });

  test('B7-B9 record no event', async () => {
    const before = (await clientB(stack).get('order/query-status', { tracking_num: tn })).body.data.activities.length;
    for (const p of ['get-shipping-label', 'get-shipping-label-html', 'get-shipping-label-zpl'])
      await clientB(stack).get(`order-shipping-label/${p}`, { tracking_num: tn });
    expect((await clientB(stack).get('order/query-status', { tracking_num: tn })).body.data.activities).toHaveLength(
      before,
    );
  });

  test.each(['get-shipping-label', 'get-shipping-label-html', 'get-shipping-label-zpl'])(
    '%s: "Order Not Found!" for a missing number or another account\'s; tracking_num require when omitted',
    async (p) => {
      const notFound = { code: 1, message: 'Order Not Found!', data: [] };
      expect((await clientB(stack).get(`order-shipping-label/${p}`, { tracking_num: 'PXNOPE' })).body).toEqual(
        notFound,
      );
      expect((await clientB(stack, OTHER).get(`order-shipping-label/${p}`, { tracking_num: tn })).body).toEqual(
        notFound,
      );
      expect((await clientB(stack).get(`order-shipping-label/${p}`)).body).toEqual({
        code: 1,
        message: 'tracking_num require',
        data: [],
      });
    },
  );
});
