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

/** The shipping label: every element of the layout at its absolute position, one page. */
export function shippingLabelDoc(
  layout: LabelLayout,
  barcodes: Barcodes,
  engine: PdfEngine,
  measure: FontSet['measure'],
): TDocumentDefinitions & { maxPagesNumber: number } {
  const content: Content[] = [];
  for (const r of layout.rules) {
    content.push({
      canvas: [{ type: 'line', x1: 0, y1: 0, x2: r.w, y2: 0, lineWidth: 0.8 }],
      absolutePosition: { x: r.x, y: r.y },
    });
  }
  for (const b of layout.boxes) {
    content.push({
      canvas: [{ type: 'rect', x: 0, y: 0, w: b.w, h: b.h, color: 'black' }],
      absolutePosition: { x: b.x, y: b.y },
    });
  }
  for (const b of layout.barcodes) {
    content.push({
      image: b.kind === 'qr' ? barcodes.qr.dataUri : barcodes.code128.dataUri,
      width: b.w,
      height: b.h,
      absolutePosition: { x: b.x, y: b.y },
    });
  }
  for (const t of layout.texts) {
    const x = t.align === 'center' ? t.x + Math.max(0, (t.w - measure(t.text, t.sizePt, t.bold)) / 2) : t.x;
    content.push({
      text: engine.rich(t.text, layout.country),
      fontSize: t.sizePt,
      bold: t.bold,
      noWrap: true,
      color: t.inverse ? 'white' : 'black',
      absolutePosition: { x, y: t.y },
    } as Content);
  }
  return {
    pageSize: { width: layout.format.widthPt, height: layout.format.heightPt },
    pageMargins: 0,
    maxPagesNumber: 1,
    info: { title: `Shipping label ${layout.barcodeData}`, creator: 'parcel-label', producer: 'pdfmake' },
    defaultStyle: { font: 'Sans', fontSize: 8, lineHeight: 1 },
    content,
  };
}
