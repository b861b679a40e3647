/**
 * ZPL II label for 203 dpi (8 dots/mm) printers, drawn from the same layout as the PDF and
 * HTML. Barcodes are the printer's own (^BC Code 128, ^BQ QR). Every field's data goes through
 * ^FH: `_`, `^` and `~` are written as hex escapes, so nothing from an order can end a field,
 * start a command or reach the printer's control commands. Every text field is a one-line ^FB
 * block, where the ZPL manual defines the backslash sequences (`\&` new line, `\(` soft
 * hyphen, `\\` backslash): a backslash from an order is written as `\\`, so it prints as itself.
 * ^CI28 selects UTF-8; glyphs outside the printer's resident fonts (CJK, Thai on a stock
 * printer) print as the font's missing glyph.
 */
import type { LabelLayout } from './types.ts';

const ZPL_DPMM = 8;
const DOTS_PER_PT = (ZPL_DPMM * 25.4) / 72;
const d = (pt: number): number => Math.max(0, Math.round(pt * DOTS_PER_PT));

/** Field data for ^FH: the hex escape character itself, the command prefixes, and nothing else. */
export function zplEscape(text: string): string {
  return text.replace(/[_^~]/g, (c) => (c === '_' ? '_5F' : c === '^' ? '_5E' : '_7E'));
}

/** Text for a ^FB block: ^FH escapes, and a backslash doubled (`\\` prints one; `\&` would break the line). */
const zplTextEscape = (text: string): string => zplEscape(text).replace(/\\/g, '\\\\');

/** Code 128 length in modules if every character took code set B (auto mode is never longer). */
const code128ModulesB = (data: string): number => 11 * (data.length + 2) + 13;

/** QR side in modules at error correction M, from the byte-mode capacity of versions 1-10. */
function qrModules(data: string): number {
  const bytes = Buffer.byteLength(data, 'utf8') + 3; // "MA," prefix
  const capacity = [14, 26, 42, 62, 84, 106, 122, 152, 180, 213];
  const version = capacity.findIndex((c) => bytes <= c) + 1 || 10;
  return 17 + 4 * version;
}

export function renderZpl(layout: LabelLayout): string {
  const out: string[] = ['^XA', '^CI28', `^PW${d(layout.format.widthPt)}`, `^LL${d(layout.format.heightPt)}`, '^LH0,0'];
  for (const r of layout.rules) out.push(`^FO${d(r.x)},${d(r.y)}^GB${d(r.w)},2,2^FS`);
  for (const b of layout.boxes) out.push(`^FO${d(b.x)},${d(b.y)}^GB${d(b.w)},${d(b.h)},${Math.min(d(b.w), d(b.h))}^FS`);
  const data = layout.barcodeData;
  for (const b of layout.barcodes) {
    if (b.kind === 'qr') {
      const mag = Math.max(1, Math.min(10, Math.floor(d(b.w) / qrModules(data))));
      out.push(`^FO${d(b.x)},${d(b.y)}^BQN,2,${mag}^FH^FDMA,${zplEscape(data)}^FS`);
    } else {
      // Quiet zones of 10 modules on both sides stay inside the layout's box.
      const modules = code128ModulesB(data);
      const w = Math.max(1, Math.min(4, Math.floor(d(b.w) / (modules + 20))));
      const x = d(b.x) + Math.max(0, Math.floor((d(b.w) - w * modules) / 2));
      out.push(`^FO${x},${d(b.y)}^BY${w}^BCN,${d(b.h)},N,N,N,A^FH^FD${zplEscape(data)}^FS`);
    }
  }
  for (const t of layout.texts) {
    const h = d(t.sizePt);
    const reverse = t.inverse ? '^FR' : '';
    out.push(
      `^FO${d(t.x)},${d(t.y)}^A0N,${h},${h}${reverse}^FB${d(t.w)},1,0,${t.align === 'center' ? 'C' : 'L'}^FH^FD${zplTextEscape(t.text)}^FS`,
    );
  }
  out.push('^XZ');
  return out.join('\n') + '\n';
}
