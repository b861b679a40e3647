/** The render pool: threads render what this thread renders, fail the same way, and are replaced when they die. */
import { loadReferenceData } from '@parcel/reference-data';
import { view } from '../test/fixtures.ts';
import { createLabelRenderer, createThreadRenderer, renderJob, renderThreadCount } from './index.ts';
import type { ThreadRenderer } from './index.ts';
import { createRenderPool } from './pool.ts';
import type { RenderPool } from './pool.ts';

const ref = loadReferenceData();
let local: ThreadRenderer;
beforeAll(async () => {
  local = await createThreadRenderer({ ref });
}, 60_000);

const parcel = view('PX7K2M9Q4T8W3N5R2', { recipient_name: 'Tan Wei Ming' });

function pool(size: number, script?: URL): { pool: RenderPool; fallbacks: () => number } {
  let n = 0;
  const p = createRenderPool({
    size,
    heapMb: 128,
    data: { ref, fontBytes: local.fontBytes },
    fallback: (job) => {
      n++;
      return renderJob(local, job);
    },
    ...(script ? { script } : {}),
  });
  return { pool: p, fallbacks: () => n };
}

async function untilReady(p: RenderPool, count: number): Promise<void> {
  const deadline = Date.now() + 30_000;
  while (p.running().filter((t) => t.ready).length < count) {
    if (Date.now() > deadline) throw new Error('render threads did not start');
    await new Promise((r) => setTimeout(r, 50));
  }
}

test('no thread before the first render; renders on this thread until a thread is ready', async () => {
  const { pool: p, fallbacks } = pool(2);
  expect(p.running()).toHaveLength(0);
  const html = await p.render({ format: 'html', view: parcel });
  expect(html).toBe(local.shippingLabelHtml(parcel));
  expect(fallbacks()).toBe(1);
  expect(p.running()).toHaveLength(2);
  await untilReady(p, 2);
  await p.stop();
  expect(p.running()).toHaveLength(0);
}, 60_000);

test('a thread renders the same labels as this thread, and fails with the same messages', async () => {
  const { pool: p, fallbacks } = pool(1);
  await p.start();
  expect(p.running().map((t) => t.ready)).toEqual([true]);
  const before = fallbacks();
  expect(await p.render({ format: 'html', view: parcel })).toBe(local.shippingLabelHtml(parcel));
  expect(await p.render({ format: 'zpl', view: parcel })).toBe(local.shippingLabelZpl(parcel));
  const pdf = Buffer.from(await p.render({ format: 'pdf', view: parcel }), 'base64');
  expect(pdf.subarray(0, 5).toString()).toBe('%PDF-');
  const cn23 = Buffer.from(await p.render({ format: 'cn23', view: parcel, direction: 'vertical' }), 'base64');
  expect(cn23.subarray(0, 5).toString()).toBe('%PDF-');
  await expect(p.render({ format: 'cn23', view: parcel, direction: 'diagonal' as never })).rejects.toThrow('unknown CN 23 direction: diagonal');
  await expect(p.render({ format: 'html', view: { ...parcel, trackingNumber: '' } })).rejects.toThrow('parcel has no tracking number to label');
  // Many at once: every one answered, in any order.
  const views = Array.from({ length: 20 }, (_, i) => view(`PX7K2M9Q4T8W3N${String(i).padStart(3, '0')}`, {}));
  const htmls = await Promise.all(views.map((v) => p.render({ format: 'html', view: v })));
  htmls.forEach((h, i) => expect(h).toBe(local.shippingLabelHtml(views[i]!)));
  expect(fallbacks()).toBe(before);
  await p.stop();
}, 60_000);

test('a thread that dies fails the jobs it had and is replaced', async () => {
  const { pool: p } = pool(1);
  await p.render({ format: 'html', view: parcel });
  await untilReady(p, 1);
  const [first] = p.running();
  const inFlight = p.render({ format: 'pdf', view: parcel });
  await first!.worker.terminate();
  await expect(inFlight).rejects.toThrow(/label render thread stopped/);
  expect(p.running()).toHaveLength(1);
  expect(p.running()[0]!.worker).not.toBe(first!.worker);
  // The replacement renders (this thread fills in while it starts).
  expect(await p.render({ format: 'html', view: parcel })).toBe(local.shippingLabelHtml(parcel));
  await untilReady(p, 1);
  expect(await p.render({ format: 'html', view: parcel })).toBe(local.shippingLabelHtml(parcel));
  await p.stop();
}, 60_000);

test('threads that cannot start turn the pool off: this thread renders', async () => {
  const broken = new URL(`data:text/javascript,${encodeURIComponent('throw new Error("no fonts here")')}`);
  const { pool: p, fallbacks } = pool(2, broken);
  const warn = jest.spyOn(process, 'emitWarning').mockImplementation(() => undefined);
  try {
    expect(await p.render({ format: 'html', view: parcel })).toBe(local.shippingLabelHtml(parcel));
    const deadline = Date.now() + 30_000;
    while (warn.mock.calls.length === 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    expect(String(warn.mock.calls[0]?.[0])).toMatch(/label render threads fail to start \(no fonts here\)/);
    expect(p.running()).toHaveLength(0);
    expect(await p.render({ format: 'html', view: parcel })).toBe(local.shippingLabelHtml(parcel));
    expect(fallbacks()).toBe(2);
  } finally {
    warn.mockRestore();
  }
}, 60_000);

test('thread count: option, PARCEL_LABEL_THREADS, else none', async () => {
  expect(renderThreadCount(3, {})).toBe(3);
  expect(renderThreadCount(undefined, { PARCEL_LABEL_THREADS: '0' })).toBe(0);
  expect(renderThreadCount(undefined, {})).toBe(0);
  expect(renderThreadCount(undefined, { PARCEL_LABEL_THREADS: '2' })).toBe(2);
  expect(() => renderThreadCount(undefined, { PARCEL_LABEL_THREADS: 'many' })).toThrow(/PARCEL_LABEL_THREADS/);
  const inline = await createLabelRenderer({ ref, threads: 0 });
  expect(inline.threads).toBe(0);
  expect(await inline.render({ format: 'html', view: parcel })).toBe(local.shippingLabelHtml(parcel));
  await inline.stopThreads();
}, 60_000);
