/**
 * Many labels in one document (get-shipping-labels) over HTTP on the embedded wiring, judged by tools
 * that share nothing with the renderer: qpdf (structure), pdfinfo (pages and their size), pdftoppm at
 * 200 dpi + zbarimg (every barcode of every page), pdftotext (no other account's number anywhere).
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { clientB, OTHER } from '../support/client.ts';
import { orderBody } from '../support/orders.ts';
import { startTestStack } from '../support/stack.ts';
import type { TestStack } from '../support/stack.ts';

let stack: TestStack;
let work: string;
/** Six parcels of the demo account, two of the other account, one self-label, one erased. */
let mine: string[];
let others: string[];
let selfLabel: string;
let erased: string;
const UNKNOWN = 'PXB3X6H0NEVAZ2J9R9';

const create = async (body: Record<string, unknown>, account?: typeof OTHER): Promise<string> =>
  (await clientB(stack, account).post('order/create-order', orderBody(body))).body.data.wmg_tracking_num;

beforeAll(async () => {
  stack = await startTestStack();
  work = mkdtempSync(path.join(tmpdir(), 'bulk-labels-'));
  mine = [];
  for (let i = 0; i < 6; i++) mine.push(await create(i % 2 ? { sender_country: 'MY', recipient_country: 'SG' } : {}));
  others = [await create({}, OTHER), await create({}, OTHER)];
  selfLabel = await create({ service_type: 'SLF' });
  erased = await create({});
  // Registered with its carrier first, as a parcel erased in practice is.
  await stack.caughtUp();
  const erasing = await clientB(stack).post('order/erase-personal-data', { tracking_nums: [erased] });
  expect(erasing.body.data.success).toEqual([erased]);
}, 60_000);
afterAll(async () => {
  await stack.destroy();
  rmSync(work, { recursive: true, force: true });
});

const labels = (body: unknown, account?: typeof OTHER) =>
  clientB(stack, account).post('order-shipping-label/get-shipping-labels', body);

let files = 0;
/** The Base64 PDF written to a file of its own. */
function pdfFile(base64: string): string {
  const file = path.join(work, `labels-${++files}.pdf`);
  writeFileSync(file, Buffer.from(base64, 'base64'));
  return file;
}

const run = (cmd: string, args: string[]) =>
  execFileSync(cmd, args, { stdio: ['ignore', 'pipe', 'ignore'] }).toString();

function pdfPages(file: string): { pages: number; size: string } {
  const info = run('pdfinfo', [file]);
  return { pages: Number(/^Pages:\s+(\d+)/m.exec(info)![1]), size: /^Page size:\s+(.+?) pts/m.exec(info)![1]! };
}

/** Every symbol zbarimg reads on every page at 200 dpi, page by page (`TYPE:data`). */
function barcodesByPage(file: string): string[][] {
  const prefix = file.replace(/\.pdf$/, '');
  run('pdftoppm', ['-r', '200', '-gray', '-png', file, prefix]);
  const base = path.basename(prefix);
  const pages = readdirSync(work)
    .filter((f) => f.startsWith(`${base}-`) && f.endsWith('.png'))
    .sort((a, b) => Number(/-(\d+)\.png$/.exec(a)![1]) - Number(/-(\d+)\.png$/.exec(b)![1]));
  return pages.map((png) => {
    try {
      return run('zbarimg', ['-q', path.join(work, png)])
        .split('\n')
        .filter(Boolean)
        .sort();
    } catch {
      return []; // zbarimg exits 4 when it finds nothing
    }
  });
}

/** The numbers the barcodes of a page decode to, each with both of its symbols. */
const bothSymbols = (numbers: readonly string[]) => numbers.flatMap((n) => [`CODE-128:${n}`, `QR-Code:${n}`]).sort();

const statusCodes = async (tn: string, account?: typeof OTHER): Promise<string[]> =>
  (await clientB(stack, account).get('order/query-status', { tracking_num: tn })).body.data.activities.map(
    (a: { status_code: string }) => a.status_code,
  );

describe('"Many labels in one document" (docs/bulk.md)', () => {
  test('layout label: one 4 x 6 in page a label, qpdf finds no error, each page’s barcodes decode to its parcel, in the order asked', async () => {
    const r = await labels({ tracking_nums: mine, format: 'pdf', layout: 'label' });
    expect(r.body).toMatchObject({ code: 0, message: 'success', data: { labels: mine, errors: [] } });
    const file = pdfFile(r.body.data.base64);
    expect(run('qpdf', ['--check', file])).toMatch(/No syntax or stream encoding errors found/);
    expect(pdfPages(file)).toEqual({ pages: 6, size: '288 x 432' });
    expect(barcodesByPage(file)).toEqual(mine.map((n) => bothSymbols([n])));
  }, 60_000);

  test('layout a4-4up: four labels an A4 page (6 labels, 2 pages), every barcode decodes, the set decoded is the set labelled', async () => {
    const r = await labels({ tracking_nums: mine, layout: 'a4-4up' });
    expect(r.body.data.labels).toEqual(mine);
    const file = pdfFile(r.body.data.base64);
    expect(run('qpdf', ['--check', file])).toMatch(/No syntax or stream encoding errors found/);
    expect(pdfPages(file)).toEqual({ pages: 2, size: '595.276 x 841.89' });
    const pages = barcodesByPage(file);
    expect(pages).toEqual([bothSymbols(mine.slice(0, 4)), bothSymbols(mine.slice(4))]);
  }, 60_000);

  test('format zpl: exactly one ^XA … ^XZ a label, in the order asked, each printing its own number', async () => {
    const r = await labels({ tracking_nums: mine, format: 'zpl' });
    expect(r.body.data).toEqual({ zpl: expect.any(String), labels: mine, errors: [] });
    const zpl: string = r.body.data.zpl;
    const blocks = zpl.match(/\^XA[\s\S]*?\^XZ/g)!;
    expect(blocks).toHaveLength(mine.length);
    expect(zpl.match(/\^XA/g)).toHaveLength(mine.length);
    expect(zpl.match(/\^XZ/g)).toHaveLength(mine.length);
    blocks.forEach((block, i) => {
      expect(block).toContain(`^FD${mine[i]}^FS`);
      for (const n of mine.filter((_, j) => j !== i)) expect(block).not.toContain(n);
    });
  });

  test('defaults: format pdf, layout label; a number asked twice is labelled once, where first asked', async () => {
    const r = await labels({ tracking_nums: [mine[1], mine[0], mine[1]] });
    expect(r.body.data).toEqual({ base64: expect.any(String), labels: [mine[1], mine[0]], errors: [] });
    const file = pdfFile(r.body.data.base64);
    expect(pdfPages(file)).toEqual({ pages: 2, size: '288 x 432' });
    expect(barcodesByPage(file)).toEqual([bothSymbols([mine[1]!]), bothSymbols([mine[0]!])]);
  }, 60_000);

  test('another account’s numbers, unknown, erased and self-label numbers answer their remarks and are on no page', async () => {
    const fresh = [await create({}), await create({})];
    const asked = [others[0]!, fresh[0]!, UNKNOWN, selfLabel, erased, others[1]!, fresh[1]!];
    const r = await labels({ tracking_nums: asked, layout: 'a4-4up' });
    expect(r.body).toEqual({
      code: 0,
      message: 'success',
      data: {
        base64: expect.any(String),
        labels: fresh,
        errors: [
          { tracking_number: others[0], remarks: 'Order Not Found!' },
          { tracking_number: UNKNOWN, remarks: 'Order Not Found!' },
          { tracking_number: selfLabel, remarks: 'The package cannot undergo this operation' },
          { tracking_number: erased, remarks: 'Personal data erased' },
          { tracking_number: others[1], remarks: 'Order Not Found!' },
        ],
      },
    });
    const file = pdfFile(r.body.data.base64);
    expect(pdfPages(file).pages).toBe(1);
    expect(barcodesByPage(file)).toEqual([bothSymbols(fresh)]);
    const text = run('pdftotext', ['-layout', file, '-']);
    for (const n of fresh) expect(text).toContain(n);
    for (const n of [...others, UNKNOWN, selfLabel, erased]) expect(text).not.toContain(n);

    // "a label event is recorded in the parcel's tracking history": LB_GN for the labelled, none for the refused.
    for (const n of fresh) expect(await statusCodes(n)).toContain('LB_GN');
    for (const n of others) expect(await statusCodes(n, OTHER)).not.toContain('LB_GN');
    for (const n of [selfLabel, erased]) expect(await statusCodes(n)).not.toContain('LB_GN');
  }, 60_000);

  test('LB_GN is recorded once a document is made, at once in query-status (read-your-writes), once per request', async () => {
    const tn = await create({});
    expect(await statusCodes(tn)).not.toContain('LB_GN');
    expect((await labels({ tracking_nums: [tn, tn], format: 'zpl' })).body.data.labels).toEqual([tn]);
    const codes = await statusCodes(tn);
    expect(codes.filter((c) => c === 'LB_GN')).toHaveLength(1);
    expect((await clientB(stack).get('order/query-status', { tracking_num: tn })).body.data.last_status).toBe('LB_GN');
  });

  test('no number can be labelled: code 0, no document, every number in errors; the other account sees none of ours', async () => {
    expect((await labels({ tracking_nums: [UNKNOWN, selfLabel] })).body).toEqual({
      code: 0,
      message: 'success',
      data: {
        labels: [],
        errors: [
          { tracking_number: UNKNOWN, remarks: 'Order Not Found!' },
          { tracking_number: selfLabel, remarks: 'The package cannot undergo this operation' },
        ],
      },
    });
    expect((await labels({ tracking_nums: mine.slice(0, 2) }, OTHER)).body.data).toEqual({
      labels: [],
      errors: mine.slice(0, 2).map((n) => ({ tracking_number: n, remarks: 'Order Not Found!' })),
    });
  });

  test.each([
    [{}, 'tracking_nums required'],
    [{ tracking_nums: [] }, 'tracking_nums required'],
    [{ tracking_nums: 'PX1' }, 'tracking_nums invalid'],
    [{ tracking_nums: ['PX1', 2] }, 'tracking_nums invalid'],
    [{ tracking_nums: Array.from({ length: 101 }, (_, i) => `PX${i}`) }, 'Batch Label Maximum 100 tracking nums'],
    [{ tracking_nums: ['PX1'], format: 'png' }, 'format invalid'],
    [{ tracking_nums: ['PX1'], layout: 'a5' }, 'layout invalid'],
    [{ tracking_nums: ['PX1'], format: 'zpl', layout: 'a4-4up' }, 'layout (a4-4up) needs format pdf'],
  ])('validation as cancel-orders: %j -> %s', async (body, message) => {
    const r = await labels(body);
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ code: 1, message, data: [] });
  });
});
