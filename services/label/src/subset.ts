/**
 * A faster writer for fontkit's TrueType subsets.
 *
 * pdfkit embeds a subset of every TrueType face a document uses, built by fontkit. fontkit
 * chooses and copies the glyphs quickly, but writes the font file through its generic
 * structure encoder, value by value, including the hinting programs (fpgm, prep, cvt) that it
 * copies whole: that alone was a fifth of the time of a shipping label. Here fontkit still picks
 * and copies the glyphs (its `_addGlyph`, which also renumbers the components of composite
 * glyphs); only the file is written differently, with the unchanged tables copied as bytes.
 * The tables are the ones fontkit writes: head, hhea, loca (long offsets), maxp, cvt, prep,
 * glyf, hmtx, fpgm. The unit tests parse the result back with fontkit and compare every glyph's
 * outline and advance with the original face.
 */
import type { Font } from 'fontkit';

interface TableEntry {
  offset: number;
  length: number;
}

interface FontInternals {
  directory: { tables: Record<string, TableEntry | undefined> };
  stream: { buffer: Uint8Array };
  loca?: { version: number };
  _variationProcessor?: unknown;
  createSubset(): SubsetInternals;
}

interface SubsetInternals {
  glyphs: number[];
  glyf: Uint8Array[];
  offset: number;
  loca: { offsets: number[]; version: number };
  hmtx: { metrics: { advance: number; bearing: number }[]; bearings: number[] };
  _addGlyph(gid: number): number;
  encode(): Uint8Array;
}

/** Whether `font` is a plain TrueType face whose subsets this module can write. */
export function canWriteSubsets(font: Font): boolean {
  const f = font as unknown as FontInternals;
  const t = f.directory.tables;
  return !!(t.glyf && t.loca && t.head && t.hhea && t.maxp && t.hmtx && !t['CFF '] && !f._variationProcessor);
}

/** Makes `font.createSubset()` return subsets written by {@link writeSubset}. */
export function useFastSubsets(font: Font): void {
  if (!canWriteSubsets(font)) return;
  const target = font as unknown as FontInternals;
  const createSubset = target.createSubset.bind(font);
  target.createSubset = () => {
    const subset = createSubset();
    subset.encode = () => writeSubset(font, subset);
    return subset;
  };
}

function rawTable(font: FontInternals, tag: string): Uint8Array | undefined {
  const entry = font.directory.tables[tag];
  return entry ? font.stream.buffer.subarray(entry.offset, entry.offset + entry.length) : undefined;
}

function checksum(data: Uint8Array): number {
  let sum = 0;
  const full = data.length & ~3;
  const view = new DataView(data.buffer, data.byteOffset, data.byteLength);
  for (let i = 0; i < full; i += 4) sum = (sum + view.getUint32(i)) >>> 0;
  if (full < data.length) {
    let last = 0;
    for (let i = full; i < full + 4; i++) last = (last << 8) | (i < data.length ? data[i]! : 0);
    sum = (sum + (last >>> 0)) >>> 0;
  }
  return sum;
}

/** The same font file fontkit's TTFSubset.encode() describes, written table by table as bytes. */
export function writeSubset(font: Font, subset: SubsetInternals): Uint8Array {
  const f = font as unknown as FontInternals;
  subset.glyf = [];
  subset.offset = 0;
  subset.loca = { offsets: [], version: f.loca?.version ?? 1 };
  subset.hmtx = { metrics: [], bearings: [] };
  // Not a for-of: composite glyphs append their components while the loop runs.
  for (let i = 0; i < subset.glyphs.length; i++) subset._addGlyph(subset.glyphs[i]!);
  subset.loca.offsets.push(subset.offset);
  const count = subset.glyf.length;

  const head = Uint8Array.from(rawTable(f, 'head')!);
  const hv = new DataView(head.buffer);
  hv.setUint32(8, 0); // checkSumAdjustment, set below
  hv.setInt16(50, 1); // indexToLocFormat: long offsets
  const hhea = Uint8Array.from(rawTable(f, 'hhea')!);
  new DataView(hhea.buffer).setUint16(34, count); // numberOfHMetrics
  const maxp = Uint8Array.from(rawTable(f, 'maxp')!);
  new DataView(maxp.buffer).setUint16(4, count); // numGlyphs

  const loca = new Uint8Array(4 * subset.loca.offsets.length);
  const lv = new DataView(loca.buffer);
  subset.loca.offsets.forEach((o, i) => lv.setUint32(4 * i, o));
  const hmtx = new Uint8Array(4 * count);
  const mv = new DataView(hmtx.buffer);
  subset.hmtx.metrics.forEach((m, i) => {
    mv.setUint16(4 * i, m.advance);
    mv.setInt16(4 * i + 2, m.bearing);
  });
  const glyf = new Uint8Array(subset.offset);
  let at = 0;
  for (const g of subset.glyf) {
    glyf.set(g, at);
    at += g.length;
  }

  const tables: [string, Uint8Array][] = (
    [
      ['cvt ', rawTable(f, 'cvt ')],
      ['fpgm', rawTable(f, 'fpgm')],
      ['glyf', glyf],
      ['head', head],
      ['hhea', hhea],
      ['hmtx', hmtx],
      ['loca', loca],
      ['maxp', maxp],
      ['prep', rawTable(f, 'prep')],
    ] as [string, Uint8Array | undefined][]
  ).filter((t): t is [string, Uint8Array] => t[1] !== undefined);

  const n = tables.length;
  const headerSize = 12 + 16 * n;
  const pad4 = (x: number): number => (x + 3) & ~3;
  const total = tables.reduce((sum, [, data]) => sum + pad4(data.length), headerSize);
  const out = new Uint8Array(total);
  const ov = new DataView(out.buffer);
  const entrySelector = Math.floor(Math.log2(n));
  const searchRange = 2 ** entrySelector * 16;
  ov.setUint32(0, 0x00010000);
  ov.setUint16(4, n);
  ov.setUint16(6, searchRange);
  ov.setUint16(8, entrySelector);
  ov.setUint16(10, n * 16 - searchRange);
  let offset = headerSize;
  let headOffset = 0;
  tables.forEach(([tag, data], i) => {
    const e = 12 + 16 * i;
    for (let k = 0; k < 4; k++) out[e + k] = tag.charCodeAt(k);
    ov.setUint32(e + 4, checksum(data));
    ov.setUint32(e + 8, offset);
    ov.setUint32(e + 12, data.length);
    out.set(data, offset);
    if (tag === 'head') headOffset = offset;
    offset += pad4(data.length);
  });
  ov.setUint32(headOffset + 8, (0xb1b0afba - checksum(out)) >>> 0);
  return out;
}
