/**
 * End-of-day manifests over HTTP on the embedded wiring (docs/bulk.md, "End-of-day manifests"):
 * create-manifest, get-manifest and list-manifests, judged by qpdf, pdftotext and zbarimg.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { registeredParcel } from '../support/carriers.ts';
import { PICKUP_ORDER } from '../support/orders.ts';
import { clientB, OTHER } from '../support/client.ts';
import { startTestStack } from '../support/stack.ts';
import type { TestStack } from '../support/stack.ts';

let stack: TestStack;
let work: string;
beforeAll(async () => {
  stack = await startTestStack();
  work = mkdtempSync(path.join(tmpdir(), 'manifests-'));
});
afterAll(async () => {
  await stack.destroy();
  rmSync(work, { recursive: true, force: true });
});

const CSV_HEADER =
  'tracking_number,custom_tracking_num,partner_tracking_no,service_type,destination_country,weight,weight_unit,pieces';

const createManifest = (body: unknown, account = undefined as typeof OTHER | undefined) =>
  clientB(stack, account).post('manifest/create-manifest', body);

/** The PDF's text, its barcode as zbarimg reads it from the page rendered at 200 dpi, after qpdf --check. */
function judgePdf(base64: string, name: string): { text: string; barcodes: string } {
  const file = path.join(work, `${name}.pdf`);
  const pdf = Buffer.from(base64, 'base64');
  expect(pdf.subarray(0, 5).toString()).toBe('%PDF-');
  writeFileSync(file, pdf);
  execFileSync('qpdf', ['--check', file]);
  const text = execFileSync('pdftotext', ['-layout', file, '-']).toString();
  execFileSync('pdftoppm', ['-r', '200', '-png', '-f', '1', '-singlefile', file, path.join(work, name)]);
  const barcodes = execFileSync('zbarimg', ['-q', path.join(work, `${name}.png`)]).toString();
  return { text, barcodes };
}

const numbersIn = (text: string) => [...new Set(text.match(/\bPX[0-9A-Z]{16}\b/g) ?? [])].sort();

describe('End-of-day manifests: create-manifest closes the account’s registered LMX parcels', () => {
  let closed: string[];
  let cancelled: string;
  let pickup: string;
  let othersParcel: string;
  let manifest: Record<string, unknown> & { manifest_id: string; tracking_numbers: string[]; pdf: string; csv: string };

  beforeAll(async () => {
    const parcels = await Promise.all([registeredParcel(stack), registeredParcel(stack), registeredParcel(stack)]);
    closed = parcels.slice(0, 2).map((p) => p.tn);
    cancelled = parcels[2]!.tn;
    const cancel = await clientB(stack).post('order/cancel-orders', { tracking_nums: [cancelled] });
    expect(cancel.body.data.success).toEqual([cancelled]);
    pickup = (await registeredParcel(stack, PICKUP_ORDER)).tn;
    othersParcel = (await registeredParcel(stack, {}, OTHER)).tn;

    const r = await createManifest({ carrier: 'LMX' });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ code: 0, message: 'success' });
    manifest = r.body.data;
  });

  test('the answer: id, carrier, Singapore created time, count and exactly the closed parcels’ numbers', () => {
    expect(manifest).toEqual({
      manifest_id: expect.stringMatching(/^MF[0-9A-Z]{16}$/),
      carrier: 'LMX',
      created_at: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\+08:00$/),
      count: 2,
      tracking_numbers: expect.any(Array),
      pdf: expect.any(String),
      csv: expect.any(String),
    });
    expect([...manifest.tracking_numbers].sort()).toEqual([...closed].sort());
    for (const left of [cancelled, pickup, othersParcel]) expect(manifest.tracking_numbers).not.toContain(left);
  });

  test('the PDF passes qpdf --check, pdftotext shows exactly the closed numbers, zbarimg reads the manifest id', () => {
    const { text, barcodes } = judgePdf(manifest.pdf, 'created');
    expect(numbersIn(text)).toEqual([...closed].sort());
    expect(text).toContain(manifest.manifest_id);
    expect(barcodes.trim().split('\n')).toContain(`CODE-128:${manifest.manifest_id}`);
  });

  test('the CSV: the header and one row per closed parcel, nothing personal', () => {
    const lines = manifest.csv.split('\r\n').filter(Boolean);
    expect(lines[0]).toBe(CSV_HEADER);
    expect(
      lines
        .slice(1)
        .map((l) => l.split(',')[0])
        .sort(),
    ).toEqual([...closed].sort());
    for (const row of lines.slice(1)) expect(row).toMatch(/^PX[0-9A-Z]{16},[^,]+,[^,]+,LMD,SG,1\.25,kg,2$/);
    expect(manifest.csv).not.toMatch(/Tan Ah Kow|6591234567|Raffles/);
  });

  test('each closed parcel shows MF_MF; the others do not', async () => {
    for (const tn of closed) {
      const status = (await clientB(stack).get('order/query-status', { tracking_num: tn })).body.data;
      expect(status.last_status).toBe('MF_MF');
      expect(status.activities[0]).toMatchObject({
        status_code: 'MF_MF',
        status_desc: 'Closed on the carrier’s end-of-day manifest',
      });
    }
    for (const tn of [cancelled, pickup]) {
      const status = (await clientB(stack).get('order/query-status', { tracking_num: tn })).body.data;
      expect(status.activities.map((a: { status_code: string }) => a.status_code)).not.toContain('MF_MF');
    }
  });

  test('a manifested parcel cannot be cancelled: cancel-orders answers "On Manifest"', async () => {
    const r = await clientB(stack).post('order/cancel-orders', { tracking_nums: [closed[0]] });
    expect(r.body).toEqual({
      code: 0,
      message: 'success',
      data: { success: [], errors: [{ tracking_number: closed[0], remarks: 'On Manifest' }] },
    });
  });

  test('a second create-manifest lists none of them again: with nothing left it answers the failure', async () => {
    const again = await createManifest({ carrier: 'LMX' });
    expect(again.body).toEqual({ code: 1, message: 'No parcels to close for this carrier', data: [] });
    const fresh = (await registeredParcel(stack)).tn;
    stack.clock.advance(60_000);
    const next = await createManifest({ carrier: 'LMX' });
    expect(next.body.data.tracking_numbers).toEqual([fresh]);
    expect(next.body.data.manifest_id).not.toBe(manifest.manifest_id);
  });

  test('get-manifest re-reads it with the same documents’ content; list-manifests lists it, newest first', async () => {
    const got = await clientB(stack).get('manifest/get-manifest', { manifest_id: manifest.manifest_id });
    expect(got.body.code).toBe(0);
    const { pdf, ...rest } = got.body.data;
    const { pdf: _first, ...created } = manifest;
    expect(rest).toEqual(created);
    expect(numbersIn(judgePdf(pdf, 'reread').text)).toEqual([...closed].sort());

    const list = await clientB(stack).get('manifest/list-manifests', { carrier: 'LMX' });
    expect(list.body.code).toBe(0);
    const ids = list.body.data.map((m: { manifest_id: string }) => m.manifest_id);
    expect(ids).toHaveLength(2);
    expect(ids[1]).toBe(manifest.manifest_id);
    expect(list.body.data[1]).toEqual({
      manifest_id: manifest.manifest_id,
      carrier: 'LMX',
      created_at: manifest.created_at,
      count: 2,
      tracking_numbers: manifest.tracking_numbers,
    });
    const page = await clientB(stack).get('manifest/list-manifests', { limit: '1', before: ids[0] });
    expect(page.body.data.map((m: { manifest_id: string }) => m.manifest_id)).toEqual([manifest.manifest_id]);
    expect((await clientB(stack).get('manifest/list-manifests', { limit: '0' })).body).toEqual({
      code: 1,
      message: 'limit invalid',
      data: [],
    });
  });

  test('another account gets "Manifest not found" and never sees it in its list', async () => {
    const got = await clientB(stack, OTHER).get('manifest/get-manifest', { manifest_id: manifest.manifest_id });
    expect(got.body).toEqual({ code: 1, message: 'Manifest not found', data: [] });
    const list = await clientB(stack, OTHER).get('manifest/list-manifests');
    expect(list.body).toEqual({ code: 0, message: 'success', data: [] });
  });

  test('the other carrier’s parcel goes on its own manifest (LMX-PU)', async () => {
    const r = await createManifest({ carrier: 'LMX-PU' });
    expect(r.body.data.tracking_numbers).toEqual([pickup]);
  });

  test('the carrier: missing "carrier require", unknown or unsupported "carrier invalid"', async () => {
    expect((await createManifest({})).body).toEqual({ code: 1, message: 'carrier require', data: [] });
    expect((await createManifest({ carrier: 'USX' })).body).toEqual({ code: 1, message: 'carrier invalid', data: [] });
    expect((await createManifest({ carrier: 42 })).body).toEqual({ code: 1, message: 'carrier invalid', data: [] });
  });
});
