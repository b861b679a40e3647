/**
 * HTML label: the layout's elements as absolutely placed boxes in points, from a Handlebars
 * template that only ever uses escaping `{{ }}` (never `{{{ }}}`), with a Content Security
 * Policy that allows no script at all.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import Handlebars from 'handlebars';
import type { Barcodes } from './barcodes.ts';
import type { LabelLayout } from './types.ts';

const TEMPLATE_FILE = path.join(import.meta.dirname, 'label.hbs');

const CJK_CSS: Record<string, string> = {
  JP: 'Noto Sans CJK JP',
  KR: 'Noto Sans CJK KR',
  TW: 'Noto Sans CJK TC',
  HK: 'Noto Sans CJK HK',
};

const pt = (n: number): string => n.toFixed(2);

interface TemplateData {
  lang: string;
  title: string;
  format: string;
  trackingNumber: string;
  widthPt: string;
  heightPt: string;
  cjkFont: string;
  rules: { x: string; y: string; w: string }[];
  boxes: { x: string; y: string; w: string; h: string }[];
  images: { cls: string; alt: string; src: string; x: string; y: string; w: string; h: string }[];
  texts: { cls: string; x: string; y: string; w: string; size: string; text: string }[];
}

export type HtmlRenderer = (layout: LabelLayout, barcodes: Barcodes) => string;

/** Reads and compiles the template once; the returned function does no I/O. */
export function loadHtmlRenderer(templateFile: string = TEMPLATE_FILE): HtmlRenderer {
  const hbs = Handlebars.create();
  const template = hbs.compile<TemplateData>(readFileSync(templateFile, 'utf8'), {
    strict: true,
    knownHelpersOnly: true,
  });
  return (layout, barcodes) =>
    template({
      lang: layout.lang,
      title: `Shipping label ${layout.barcodeData}`,
      format: layout.format.name,
      trackingNumber: layout.barcodeData,
      widthPt: pt(layout.format.widthPt),
      heightPt: pt(layout.format.heightPt),
      cjkFont: CJK_CSS[layout.country] ?? 'Noto Sans CJK SC',
      rules: layout.rules.map((r) => ({ x: pt(r.x), y: pt(r.y), w: pt(r.w) })),
      boxes: layout.boxes.map((b) => ({ x: pt(b.x), y: pt(b.y), w: pt(b.w), h: pt(b.h) })),
      images: layout.barcodes.map((b) => ({
        // QR modules are scaled without smoothing (sharp squares). The Code 128 image is scaled
        // smoothly: at a screen's 1.33 px per point a module is about 1.6 px, and nearest-neighbour
        // scaling would make some bars 1 px and others 2 px wide, which readers reject; smoothing
        // keeps each edge at its true position.
        cls: b.kind === 'qr' ? 'bc q' : 'bc',
        alt: b.kind === 'qr' ? 'QR code' : 'Code 128 barcode',
        src: b.kind === 'qr' ? barcodes.qr.dataUri : barcodes.code128.dataUri,
        x: pt(b.x),
        y: pt(b.y),
        w: pt(b.w),
        h: pt(b.h),
      })),
      texts: layout.texts.map((t) => ({
        cls: ['t', t.bold ? 'b' : '', t.align === 'center' ? 'c' : '', t.inverse ? 'i' : ''].filter(Boolean).join(' '),
        x: pt(t.x),
        y: pt(t.y),
        w: pt(t.w),
        size: pt(t.sizePt),
        text: t.text,
      })),
    });
}
