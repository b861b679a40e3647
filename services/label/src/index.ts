import type { StoredParcelView } from '@parcel-logistics/contracts';
import { barcodeCache } from './barcodes.ts';
import { buildCn23Model, cn23Doc } from './cn23.ts';
import { loadFonts } from './fonts.ts';
import { loadHtmlRenderer } from './html.ts';
import { layoutLabel } from './layout.ts';
import { manifestDoc } from './manifest.ts';
import { buildLabelModel, labelFormatFor } from './model.ts';
import { createPdfEngine, shippingLabelDoc, shippingLabelsDoc } from './pdf.ts';
import type { LabelRendering } from './renderingLabel/handler.ts';
import type { Cn23Direction, LabelJob, LabelLayout, LabelRenderer, LabelRendererOptions, LabelsJob } from './types.ts';
import { renderZpl } from './zpl.ts';

export type * from './types.ts';
export { CN23_CATEGORIES } from './types.ts';
export { buildLabelModel, labelFormatFor, LABEL_FORMATS } from './model.ts';
export { buildCn23Model, cn23Category } from './cn23.ts';
export { layoutLabel } from './layout.ts';
export { approximateMeasure } from './text.ts';
export { zplEscape } from './zpl.ts';

const DIRECTIONS: ReadonlySet<string> = new Set<Cn23Direction>(['horizontal', 'vertical']);

/**
 * Loads fonts and the HTML template once and returns the render functions; rendering itself
 * reads no file. Every method renders on the calling thread.
 */
export async function createLabelRenderer(options: LabelRendererOptions): Promise<LabelRenderer> {
  const { ref } = options;
  const fonts = loadFonts(options.fontsDir);
  const engine = createPdfEngine(fonts);
  const html = loadHtmlRenderer();
  const barcodes = barcodeCache(options.barcodeCacheSize ?? 1024);

  const layoutOf = (view: StoredParcelView): LabelLayout => {
    const layout = layoutLabel(buildLabelModel(view, ref), fonts.measure);
    if (!layout.barcodeData) throw new Error('parcel has no tracking number to label');
    return layout;
  };

  const renderer: LabelRenderer = {
    fonts: fonts.files,
    labelFormatFor: (view) => labelFormatFor(view, ref),
    async cn23Pdf(view, direction) {
      if (!DIRECTIONS.has(direction)) throw new Error(`unknown CN 23 direction: ${String(direction)}`);
      const model = buildCn23Model(view, ref);
      if (!model.trackingNumber) throw new Error('parcel has no tracking number to label');
      return engine.render(cn23Doc(model, direction, barcodes(model.trackingNumber), engine, fonts.measure));
    },
    async shippingLabelPdf(view) {
      const layout = layoutOf(view);
      return engine.render(shippingLabelDoc(layout, barcodes(layout.barcodeData), engine, fonts.measure));
    },
    shippingLabelHtml(view) {
      const layout = layoutOf(view);
      return html(layout, barcodes(layout.barcodeData));
    },
    shippingLabelZpl(view) {
      return renderZpl(layoutOf(view));
    },
    async manifestPdf(manifest) {
      return engine.render(manifestDoc(manifest, barcodes(manifest.manifestId).code128));
    },
    render: (job) => renderJob(renderer, job),
    async renderMany(job: LabelsJob) {
      const layouts = job.views.map(layoutOf);
      if (job.format === 'zpl') return layouts.map(renderZpl).join('');
      const labels = layouts.map((layout) => ({ layout, barcodes: barcodes(layout.barcodeData) }));
      return (await engine.render(shippingLabelsDoc(labels, job.sheet, engine, fonts.measure))).toString('base64');
    },
  };

  // Warm up once at start, every format: fails fast on a broken font or template, and no request
  // pays for pdfmake's, pdfkit's and fontkit's lazy set-up (modules they load on first use).
  const probe = probeView();
  await renderer.shippingLabelPdf(probe);
  await renderer.cn23Pdf(probe, 'horizontal');
  renderer.shippingLabelHtml(probe);
  renderer.shippingLabelZpl(probe);
  return renderer;
}

/**
 * A renderer made by `load` on the first render instead of at start, for a process that may
 * render no label at all: it then never holds the fonts and the PDF libraries (in the embedded
 * stack about 100 MB of its resident size). Concurrent first renders share one load, and a failed
 * load is tried again by the next render.
 */
export function loadOnFirstRender(load: () => Promise<LabelRenderer>): LabelRendering {
  let loading: Promise<LabelRenderer> | undefined;
  const loaded = () =>
    (loading ??= load().catch((error: unknown) => {
      loading = undefined;
      throw error;
    }));
  return {
    render: async (job) => (await loaded()).render(job),
    renderMany: async (job) => (await loaded()).renderMany(job),
  };
}

/** The label as the RenderLabel reply carries it: Base64 for the PDFs, the document for HTML and ZPL. */
async function renderJob(renderer: LabelRenderer, job: LabelJob): Promise<string> {
  switch (job.format) {
    case 'cn23':
      return (await renderer.cn23Pdf(job.view, job.direction)).toString('base64');
    case 'pdf':
      return (await renderer.shippingLabelPdf(job.view)).toString('base64');
    case 'html':
      return renderer.shippingLabelHtml(job.view);
    case 'zpl':
      return renderer.shippingLabelZpl(job.view);
    case 'manifest':
      return (await renderer.manifestPdf(job.manifest)).toString('base64');
    default: {
      const unhandled: never = job;
      throw new Error(`unknown label format ${String((unhandled as { format: unknown }).format)}`);
    }
  }
}

function probeView(): StoredParcelView {
  return {
    trackingNumber: 'PROBE0000000000',
    clientId: 'probe',
    customTrackingNum: 'probe',
    revision: 0,
    status: 'active',
    serviceType: '',
    carrier: '',
    weightUnit: 'kg',
    partnerTrackingNo: '',
    partnerName: '',
    createdAt: '1970-01-01T08:00:00+08:00',
    activities: [],
    order: {
      custom_tracking_num: 'probe',
      recipient_name: 'Probe 東京 กรุงเทพ 서울',
      recipient_country: 'SG',
      recipient_phone: '0',
      recipient_address: 'Probe',
      sender_country: 'SG',
      client_size: '1,1,1',
      client_weight: 1,
      declared_value: 0,
      declared_value_currency: 'SGD',
      item: [],
    },
  };
}
export { createLabelService, renderLabel, renderLabels } from './renderingLabel/handler.ts';
export type { LabelRendering } from './renderingLabel/handler.ts';
