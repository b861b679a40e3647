/**
 * pdfmake, set up once: fonts come from the parsed faces of fonts.ts through an in-memory
 * virtual file system, and neither the disk nor the network is reachable from a document.
 */
import PrinterExport from 'pdfmake/js/Printer.js';
import type { Content, TDocumentDefinitions } from 'pdfmake/interfaces.js';
import type { Barcodes } from './barcodes.ts';
import { cjkFamilyFor, type FontSet } from './fonts.ts';
import type { LabelLayout } from './types.ts';

interface PdfKitDocument {
  on(event: 'data', cb: (chunk: Buffer) => void): void;
  on(event: 'end' | 'error', cb: (err?: Error) => void): void;
  end(): void;
}
interface PdfPrinter {
  createPdfKitDocument(
    doc: TDocumentDefinitions & { maxPagesNumber?: number },
    options?: object,
  ): Promise<PdfKitDocument>;
}
type PdfPrinterClass = new (
  fonts: object,
  vfs: FontSet['vfs'],
  urlResolver: object,
  localAccessPolicy: (path: string) => boolean,
) => PdfPrinter;

// A CommonJS module with `exports.default`: Node's ESM loader hands over the exports object,
// SWC's interop (Jest) the default itself.
const PdfPrinterCtor = (
  typeof PrinterExport === 'function' ? PrinterExport : (PrinterExport as { default: unknown }).default
) as PdfPrinterClass;

/** No document of ours names a URL: nothing to fetch. */
const noUrls = { resolve: () => undefined, resolved: () => Promise.resolve() };

export interface PdfEngine {
  render(doc: TDocumentDefinitions & { maxPagesNumber?: number }): Promise<Buffer>;
  /** pdfmake inlines for display text: one run per font that has the glyphs. */
  rich(text: string, country: string): Content;
}

export function createPdfEngine(fonts: FontSet): PdfEngine {
  const policy = (p: string): boolean => fonts.standardFonts.has(p);
  return {
    async render(doc) {
      const printer = new PdfPrinterCtor(fonts.descriptors(), fonts.vfs, noUrls, policy);
      const pdf = await printer.createPdfKitDocument(doc);
      return new Promise<Buffer>((resolve, reject) => {
        const chunks: Buffer[] = [];
        pdf.on('data', (c) => chunks.push(c));
        pdf.on('end', () => resolve(Buffer.concat(chunks)));
        pdf.on('error', reject);
        pdf.end();
      });
    },
    rich(text, country) {
      const runs = fonts.runs(text, cjkFamilyFor(country));
      if (runs.length === 1 && runs[0]?.font === 'Sans') return runs[0].text;
      return runs.map((r) => ({ text: r.text, font: r.font }));
    },
  };
}

/** Where a label is drawn on its page: its top left corner and its scale (1: the layout's own size). */
interface Placement {
  x: number;
  y: number;
  scale: number;
}

/** Every element of the layout at its absolute position, moved and scaled by `at`. */
function labelContent(
  layout: LabelLayout,
  barcodes: Barcodes,
  engine: PdfEngine,
  measure: FontSet['measure'],
  at: Placement,
): Content[] {
  const { scale: s } = at;
  const pos = (x: number, y: number) => ({ x: at.x + x * s, y: at.y + y * s });
  const content: Content[] = [];
  for (const r of layout.rules) {
    content.push({
      canvas: [{ type: 'line', x1: 0, y1: 0, x2: r.w * s, y2: 0, lineWidth: 0.8 * s }],
      absolutePosition: pos(r.x, r.y),
    });
  }
  for (const b of layout.boxes) {
    content.push({
      canvas: [{ type: 'rect', x: 0, y: 0, w: b.w * s, h: b.h * s, color: 'black' }],
      absolutePosition: pos(b.x, b.y),
    });
  }
  for (const b of layout.barcodes) {
    content.push({
      image: b.kind === 'qr' ? barcodes.qr.dataUri : barcodes.code128.dataUri,
      width: b.w * s,
      height: b.h * s,
      absolutePosition: pos(b.x, b.y),
    });
  }
  for (const t of layout.texts) {
    const x = t.align === 'center' ? t.x + Math.max(0, (t.w - measure(t.text, t.sizePt, t.bold)) / 2) : t.x;
    content.push({
      text: engine.rich(t.text, layout.country),
      fontSize: t.sizePt * s,
      bold: t.bold,
      noWrap: true,
      color: t.inverse ? 'white' : 'black',
      absolutePosition: pos(x, t.y),
    } as Content);
  }
  return content;
}

const docDefaults = { pageMargins: 0, defaultStyle: { font: 'Sans', fontSize: 8, lineHeight: 1 } } as const;

/** The shipping label: every element of the layout at its absolute position, one page. */
export function shippingLabelDoc(
  layout: LabelLayout,
  barcodes: Barcodes,
  engine: PdfEngine,
  measure: FontSet['measure'],
): TDocumentDefinitions & { maxPagesNumber: number } {
  return {
    ...docDefaults,
    pageSize: { width: layout.format.widthPt, height: layout.format.heightPt },
    maxPagesNumber: 1,
    info: { title: `Shipping label ${layout.barcodeData}`, creator: 'parcel-label', producer: 'pdfmake' },
    content: labelContent(layout, barcodes, engine, measure, { x: 0, y: 0, scale: 1 }),
  };
}

/** How many labels a sheet takes: one per 4 x 6 in page, or four per A4 page (2 x 2). */
export type SheetLayout = 'label' | 'a4-4up';

/** 4 x 6 in, the thermal printers' stock: every label format of ours fits on it unscaled. */
const LABEL_PAGE = { width: 4 * 72, height: 6 * 72 };
/** ISO 216 A4 in points. */
const A4_PAGE = { width: (210 * 72) / 25.4, height: (297 * 72) / 25.4 };

/** Where the label goes in a cell of the page: as large as fits (never larger than itself), centred. */
function placeIn(
  cell: { x: number; y: number; width: number; height: number },
  layout: LabelLayout,
  grow: boolean,
): Placement {
  const { widthPt: w, heightPt: h } = layout.format;
  const fit = Math.min(cell.width / w, cell.height / h);
  const scale = grow ? fit : Math.min(1, fit);
  return { x: cell.x + (cell.width - w * scale) / 2, y: cell.y + (cell.height - h * scale) / 2, scale };
}

/**
 * Many shipping labels in one document, in the order given: fonts are embedded once for all. On
 * `label` sheets each label has a 4 x 6 in page of its own, unscaled and centred (a 100 x 150 mm
 * label leaves a margin of about 1 mm); on `a4-4up` sheets four labels share an A4 page, left to
 * right then top to bottom, each scaled to fit its quarter (about 97 % to 99 %).
 */
export function shippingLabelsDoc(
  labels: readonly { layout: LabelLayout; barcodes: Barcodes }[],
  sheet: SheetLayout,
  engine: PdfEngine,
  measure: FontSet['measure'],
): TDocumentDefinitions & { maxPagesNumber: number } {
  if (labels.length === 0) throw new Error('no label to render');
  const perPage = sheet === 'a4-4up' ? 4 : 1;
  const page = sheet === 'a4-4up' ? A4_PAGE : LABEL_PAGE;
  const cols = sheet === 'a4-4up' ? 2 : 1;
  const cell = { width: page.width / cols, height: page.height / (perPage / cols) };
  const content: Content[] = [];
  labels.forEach(({ layout, barcodes }, i) => {
    const slot = i % perPage;
    // A page is opened by flowing content only; absolutely placed elements land on the current page.
    if (i > 0 && slot === 0) content.push({ text: '', pageBreak: 'before' });
    const at = placeIn(
      { x: (slot % cols) * cell.width, y: Math.floor(slot / cols) * cell.height, ...cell },
      layout,
      sheet === 'a4-4up',
    );
    content.push(...labelContent(layout, barcodes, engine, measure, at));
  });
  return {
    ...docDefaults,
    pageSize: page,
    maxPagesNumber: Math.ceil(labels.length / perPage),
    info: { title: `Shipping labels (${labels.length})`, creator: 'parcel-label', producer: 'pdfmake' },
    content,
  };
}
