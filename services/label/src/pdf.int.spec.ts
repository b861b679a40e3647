/**
 * The PDFs, checked with tools that share nothing with the renderer: qpdf (structure), pdfinfo
 * (pages and page size), pdftoppm at 300 dpi + zbarimg (both barcodes), pdftotext and pdffonts
 * (text and embedded fonts, non-Latin names included).
 */
import type { StoredParcelView } from '@parcel-logistics/contracts';
import { loadReferenceData } from '@parcel-logistics/reference-data';
import { hostile, jpNonLatin, myPickup, noServiceType, selfLabel, sgLockerCod, usExpress } from '../test/fixtures.ts';
import { createLabelRenderer } from './index.ts';
import { pdfFonts, pdfInfo, pdfText, pdfToPng, qpdfCheck, workDir, writeFile, zbar } from '../test/spec-tools.ts';
import type { Cn23Direction, LabelRenderer } from './types.ts';

const ref = loadReferenceData();
let renderer: LabelRenderer;
const work = workDir('label-pdf-');
beforeAll(async () => {
  renderer = await createLabelRenderer({ ref });
}, 60_000);
afterAll(() => work.remove());

const MM = 72 / 25.4;
const SIZES = {
  '100 x 150 mm': [100 * MM, 150 * MM], // 283.46 x 425.2 pt
  A6: [105 * MM, 148 * MM], // 297.64 x 419.53 pt
  '4 x 6 in': [288, 432],
} as const;

async function shippingPdf(name: string, view: StoredParcelView): Promise<string> {
  return writeFile(work.file(`${name}.pdf`), await renderer.shippingLabelPdf(view));
}

describe('shipping label PDF (B7)', () => {
  test.each([
    ['LMD, locker, COD', '100 x 150 mm', sgLockerCod],
    ['PUD', '100 x 150 mm', myPickup],
    ['no service type', '100 x 150 mm', noServiceType],
    ['SLF', 'A6', selfLabel],
    ['US destination', '4 x 6 in', usExpress],
    ['hostile input', '100 x 150 mm', hostile],
    ['Chinese, Thai and Korean names', '100 x 150 mm', jpNonLatin],
  ] as const)(
    '%s: qpdf --check passes, one page of %s, Code 128 and QR decode to the tracking number',
    async (name, size, view) => {
      const file = await shippingPdf(name.replace(/\W+/g, '-'), view);
      expect(qpdfCheck(file)).toMatch(/No syntax or stream encoding errors found/);
      const info = pdfInfo(file);
      expect(info.pages).toBe(1);
      expect(info.widthPt).toBeCloseTo(SIZES[size][0], 1);
      expect(info.heightPt).toBeCloseTo(SIZES[size][1], 1);
      expect(zbar(pdfToPng(file, 300)).sort()).toEqual([
        `CODE-128:${view.trackingNumber}`,
        `QR-Code:${view.trackingNumber}`,
      ]);
    },
    60_000,
  );

  test('hostile input stays on its page: cut with an ellipsis, markup and ZPL shown as text', async () => {
    const text = pdfText(await shippingPdf('hostile-text', hostile));
    expect(text).toContain('<script>alert(1)</script>');
    expect(text).toContain('"><img src=x onerror=alert(1)>');
    expect(text).toContain('^XZ^XA^FO0,0^FDpwned^FS ~JA');
    expect(text).toContain('\u2026'); // the 1 000-character address and 10 000-character note are cut
    expect(text).not.toContain('Block 50'); // the end of the long address is not on the label
  }, 60_000);
});

describe('CN 23 customs declaration PDF (A2)', () => {
  const A4 = [595.28, 841.89];
  test.each([
    ['horizontal', 'LMD', sgLockerCod],
    ['vertical', 'LMD', sgLockerCod],
    ['horizontal', 'non-Latin names', jpNonLatin],
    ['vertical', 'hostile input, 40 items', hostile],
  ] as [Cn23Direction, string, StoredParcelView][])(
    '%s, %s: qpdf --check passes, A4 in the right orientation, Code 128 decodes',
    async (direction, _name, view) => {
      const file = writeFile(
        work.file(`cn23-${direction}-${view.trackingNumber}.pdf`),
        await renderer.cn23Pdf(view, direction),
      );
      expect(qpdfCheck(file)).toMatch(/No syntax or stream encoding errors found/);
      const info = pdfInfo(file);
      const [w, h] = direction === 'horizontal' ? [A4[1]!, A4[0]!] : [A4[0]!, A4[1]!];
      expect(info.widthPt).toBeCloseTo(w, 1);
      expect(info.heightPt).toBeCloseTo(h, 1);
      // 40 items of the hostile order flow onto a second page; one item fits on one.
      expect(info.pages).toBe(view === hostile ? 2 : 1);
      expect(zbar(pdfToPng(file, 300))).toEqual([`CODE-128:${view.trackingNumber}`]);
      const text = pdfText(file);
      expect(text).toContain('CN 23');
      expect(text).toContain(view.order.item[0]!.itemHSCode!.slice(0, 20));
    },
    90_000,
  );
});

describe('fonts: Chinese, Thai and Korean names', () => {
  test('the fonts of fonts.ts are installed (fonts-dejavu-core, fonts-tlwg-loma-ttf, fonts-noto-cjk)', () => {
    expect(renderer.fonts.Sans).toMatch(/DejaVuSans\.ttf/);
    expect(renderer.fonts.Thai).toMatch(/Loma\.ttf/);
    expect(renderer.fonts.CJK_JP).toMatch(/NotoSansCJK-Regular\.ttc/);
  });

  test.each([
    ['shipping label', () => renderer.shippingLabelPdf(jpNonLatin)],
    ['CN 23', () => renderer.cn23Pdf(jpNonLatin, 'horizontal')],
  ])(
    '%s: the names are set in Noto Sans CJK (Japanese forms for a JP address) and Loma, and read back as text',
    async (name, render) => {
      const file = writeFile(work.file(`fonts-${name.replace(/\W+/g, '-')}.pdf`), await render());
      const fonts = pdfFonts(file).join(' ');
      expect(fonts).toMatch(/\+NotoSansCJKjp-Bold/);
      expect(fonts).toMatch(/\+Loma/);
      expect(fonts).toMatch(/\+DejaVuSans/);
      const text = pdfText(file).replace(/\s+/g, ' ');
      for (const s of ['山田 太郎', 'สมชาย', 'ใจดี', '김민준', '北京商贸有限公司', '東京都千代田区', '서울특별시'])
        expect(text).toContain(s);
      expect(text).not.toContain('?');
    },
    60_000,
  );

  test('without any font files: Helvetica, every non-Latin glyph a visible "?", the label still complete', async () => {
    const empty = workDir('label-nofonts-');
    try {
      const bare = await createLabelRenderer({ ref, fontsDir: empty.dir });
      expect(bare.fonts.Sans).toMatch(/Helvetica/);
      const file = writeFile(work.file('nofonts.pdf'), await bare.shippingLabelPdf(jpNonLatin));
      qpdfCheck(file);
      expect(pdfInfo(file).pages).toBe(1);
      const text = pdfText(file);
      expect(text).toContain('JP 1000005');
      expect(text).toMatch(/\?\? \?\?/); // 山田 太郎
      expect(zbar(pdfToPng(file, 300)).sort()).toEqual([
        `CODE-128:${jpNonLatin.trackingNumber}`,
        `QR-Code:${jpNonLatin.trackingNumber}`,
      ]);
    } finally {
      empty.remove();
    }
  }, 60_000);
});
