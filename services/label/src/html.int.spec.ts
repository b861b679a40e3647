/**
 * The HTML label as a browser shows it: headless Chromium takes a screenshot (800 x 1200 CSS
 * px, device scale 1) and zbarimg reads both barcodes from it; Chromium's DOM after loading the
 * hostile label holds no script and no event handler.
 */
import type { StoredParcelView } from '@parcel-logistics/contracts';
import { hostile, SCANNED } from '../test/fixtures.ts';
import { chromiumDom, chromiumScreenshot, htmlTexts, writeFile, zbar, rendererAndWorkDir } from '../test/spec-tools.ts';

const label = rendererAndWorkDir('label-html-');
const { work } = label;

const htmlFile = (name: string, view: StoredParcelView): string =>
  writeFile(work.file(`${name}.html`), label.renderer.shippingLabelHtml(view));

test.each(SCANNED)(
  "%s: Chromium's screenshot decodes to the tracking number (Code 128 and QR)",
  (name, view) => {
    const file = htmlFile(name.replace(/\W+/g, '-'), view);
    const png = chromiumScreenshot(file, file.replace(/\.html$/, '.png'));
    expect(zbar(png).sort()).toEqual([`CODE-128:${view.trackingNumber}`, `QR-Code:${view.trackingNumber}`]);
  },
  120_000,
);

describe('hostile input', () => {
  const html = () => label.renderer.shippingLabelHtml(hostile);

  test('every field is escaped: no markup from the order in the document', () => {
    const h = html();
    expect(h).not.toMatch(/<script/i);
    expect(h).not.toMatch(/<[^>]*\son\w+\s*=/i); // no event handler attribute in any tag
    expect(h.match(/<img\b/g)).toHaveLength(2); // the two barcodes, nothing else
    expect(h).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(h).toContain('&quot;&gt;&lt;img src&#x3D;x onerror&#x3D;alert(1)&gt;');
    expect(h).toContain("default-src 'none'"); // and the policy allows no script at all
    // The markup is shown as the text it is.
    expect(htmlTexts(h)).toEqual(
      expect.arrayContaining(['<script>alert(1)</script>', '"><img src=x onerror=alert(1)>']),
    );
  });

  test("Chromium's DOM after loading it: no script element, no onerror, the names are text", () => {
    const dom = chromiumDom(htmlFile('hostile-dom', hostile));
    expect(dom).toMatch(/<div class="label"/);
    expect(dom).not.toMatch(/<script/i);
    expect(dom).not.toMatch(/<[^>]*\son\w+\s*=/i);
    expect(dom.match(/<img\b/g)).toHaveLength(2);
    expect(dom).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(dom).toContain('"&gt;&lt;img src=x onerror=alert(1)&gt;');
  }, 120_000);

  test('the long address and note are cut to their lines: every text stays inside the label', () => {
    const h = html();
    const height = Number(/\.label \{[^}]*height: ([\d.]+)pt/.exec(h)?.[1]);
    const tops = [...h.matchAll(/top:([\d.]+)pt;width:[\d.]+pt;font-size:([\d.]+)pt/g)].map(
      (m) => Number(m[1]) + 1.2 * Number(m[2]),
    );
    expect(tops.length).toBeGreaterThan(10);
    expect(Math.max(...tops)).toBeLessThanOrEqual(height);
    expect(h.length).toBeLessThan(20_000); // not 10 000 characters of note
  });
});
