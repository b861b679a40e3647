/** `render(job)`, as the label service renders: what the renderer's own methods give, in RenderLabel's shape, and the same failures. */
import { loadReferenceData } from '@parcel-logistics/reference-data';
import { view } from '../test/fixtures.ts';
import { createLabelRenderer } from './index.ts';
import type { LabelRenderer } from './index.ts';

const ref = loadReferenceData();
let renderer: LabelRenderer;
beforeAll(async () => {
  renderer = await createLabelRenderer({ ref });
}, 60_000);

const parcel = view('PX7K2M9Q4T8W3N5R2', { recipient_name: 'Tan Wei Ming' });

test('render gives the labels the methods give, and fails with the same messages', async () => {
  expect(await renderer.render({ format: 'html', view: parcel })).toBe(renderer.shippingLabelHtml(parcel));
  expect(await renderer.render({ format: 'zpl', view: parcel })).toBe(renderer.shippingLabelZpl(parcel));
  const pdf = Buffer.from(await renderer.render({ format: 'pdf', view: parcel }), 'base64');
  expect(pdf.subarray(0, 5).toString()).toBe('%PDF-');
  const cn23 = Buffer.from(await renderer.render({ format: 'cn23', view: parcel, direction: 'vertical' }), 'base64');
  expect(cn23.subarray(0, 5).toString()).toBe('%PDF-');
  await expect(renderer.render({ format: 'cn23', view: parcel, direction: 'diagonal' as never })).rejects.toThrow(
    'unknown CN 23 direction: diagonal',
  );
  await expect(renderer.render({ format: 'html', view: { ...parcel, trackingNumber: '' } })).rejects.toThrow(
    'parcel has no tracking number to label',
  );
  // Many at once: every one answered, in any order.
  const views = Array.from({ length: 20 }, (_, i) => view(`PX7K2M9Q4T8W3N${String(i).padStart(3, '0')}`, {}));
  const htmls = await Promise.all(views.map((v) => renderer.render({ format: 'html', view: v })));
  htmls.forEach((h, i) => expect(h).toBe(renderer.shippingLabelHtml(views[i]!)));
}, 60_000);
