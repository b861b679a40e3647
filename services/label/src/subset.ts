/**
 * TrueType subsets written from the font file's bytes, for pdfkit (sharedFaces.ts hands it
 * these through the face's public `createSubset`: `includeGlyph`, then `encode`).
 *
 * fontkit's own TrueType subset decodes every glyph's outline and re-encodes the hinting
 * programs (fpgm, prep, cvt) value by value through its generic structure encoder, for every
 * document: over a label, a fifth of its cost or more (README, Performance). Here the glyphs are
 * copied as bytes (the components of composite glyphs renumbered) and the unchanged tables as
 * they are. The file written has the tables fontkit writes: head, hhea, loca (long offsets),
 * maxp, cvt, prep, glyf, hmtx, fpgm. subset.int.spec.ts parses it back with fontkit and compares
 * every glyph's outline and advance with the original face and with fontkit's own subset.
 */

/** The tables of a plain TrueType font file (not a collection, no variations), by tag. */
export type TrueTypeTables = ReadonlyMap<string, Uint8Array>;

const view = (b: Uint8Array): DataView => new DataView(b.buffer, b.byteOffset, b.byteLength);

/** The tables of `file` if it is a TrueType font whose subsets this module writes, else undefined. */
export function trueTypeTables(file: Uint8Array): TrueTypeTables | undefined {
  if (file.length < 12) return undefined;
  const v = view(file);
  const version = v.getUint32(0);
  if (version !== 0x00010000 && version !== 0x74727565 /* 'true' */) return undefined;
  const tables = new Map<string, Uint8Array>();
  for (let i = 0, n = v.getUint16(4); i < n; i++) {
    const e = 12 + 16 * i;
    const tag = String.fromCharCode(...file.subarray(e, e + 4));
    tables.set(tag, file.subarray(v.getUint32(e + 8), v.getUint32(e + 8) + v.getUint32(e + 12)));
  }
  const required = ['head', 'hhea', 'maxp', 'hmtx', 'loca', 'glyf'];
  return required.every((t) => tables.has(t)) && !tables.has('fvar') ? tables : undefined;
}

// Composite glyph component flags (the OpenType specification, 'glyf' table).
const ARG_1_AND_2_ARE_WORDS = 0x0001;
const WE_HAVE_A_SCALE = 0x0008;
const MORE_COMPONENTS = 0x0020;
const WE_HAVE_AN_X_AND_Y_SCALE = 0x0040;
const WE_HAVE_A_TWO_BY_TWO = 0x0080;

/** A subset of one face: glyph 0 (.notdef) first, then each glyph in the order it was included. */
export class TrueTypeSubset {
  readonly glyphs: number[] = [];
  private readonly mapping = new Map<number, number>();
  private readonly tables: TrueTypeTables;

  constructor(tables: TrueTypeTables) {
    this.tables = tables;
    this.includeGlyph(0);
  }

  /** The glyph's id in the subset (pdfkit passes an id; fontkit's interface also allows a glyph). */
  includeGlyph(glyph: number | { id: number }): number {
    const id = typeof glyph === 'number' ? glyph : glyph.id;
    let n = this.mapping.get(id);
    if (n === undefined) {
      n = this.glyphs.push(id) - 1;
      this.mapping.set(id, n);
    }
    return n;
  }

  private table(tag: string): Uint8Array {
    return this.tables.get(tag)!;
  }

  /** The glyph's bytes in the original 'glyf' table. */
  private glyphBytes(id: number): Uint8Array {
    const loca = view(this.table('loca'));
    const long = view(this.table('head')).getInt16(50) === 1;
    const at = (i: number): number => (long ? loca.getUint32(4 * i) : 2 * loca.getUint16(2 * i));
    return this.table('glyf').subarray(at(id), at(id + 1));
  }

  /** [advance width, left side bearing] from 'hmtx'. */
  private metrics(id: number): [number, number] {
    const hmtx = view(this.table('hmtx'));
    const long = view(this.table('hhea')).getUint16(34);
    if (id < long) return [hmtx.getUint16(4 * id), hmtx.getInt16(4 * id + 2)];
    return [hmtx.getUint16(4 * (long - 1)), hmtx.getInt16(4 * long + 2 * (id - long))];
  }

  /** A copy of a composite glyph with its components' ids renumbered (and included); others as they are. */
  private copyGlyph(id: number): Uint8Array {
    const original = this.glyphBytes(id);
    if (original.length < 10 || view(original).getInt16(0) >= 0) return original;
    const glyph = Uint8Array.from(original);
    const v = view(glyph);
    let at = 10;
    for (;;) {
      const flags = v.getUint16(at);
      v.setUint16(at + 2, this.includeGlyph(v.getUint16(at + 2)));
      at += 4 + (flags & ARG_1_AND_2_ARE_WORDS ? 4 : 2);
      if (flags & WE_HAVE_A_SCALE) at += 2;
      else if (flags & WE_HAVE_AN_X_AND_Y_SCALE) at += 4;
      else if (flags & WE_HAVE_A_TWO_BY_TWO) at += 8;
      if (!(flags & MORE_COMPONENTS)) return glyph;
    }
  }

  encode(): Uint8Array {
    const glyf: Uint8Array[] = [];
    // Not a for-of: composite glyphs include their components while the loop runs.
    for (let i = 0; i < this.glyphs.length; i++) glyf.push(this.copyGlyph(this.glyphs[i]!));
    const count = glyf.length;

    const head = Uint8Array.from(this.table('head'));
    view(head).setUint32(8, 0); // checkSumAdjustment, set below
    view(head).setInt16(50, 1); // indexToLocFormat: long offsets
    const hhea = Uint8Array.from(this.table('hhea'));
    view(hhea).setUint16(34, count); // numberOfHMetrics
    const maxp = Uint8Array.from(this.table('maxp'));
    view(maxp).setUint16(4, count); // numGlyphs

    const loca = new Uint8Array(4 * (count + 1));
    const hmtx = new Uint8Array(4 * count);
    const glyfBytes = new Uint8Array(glyf.reduce((sum, g) => sum + g.length, 0));
    let offset = 0;
    glyf.forEach((g, i) => {
      view(loca).setUint32(4 * i, offset);
      glyfBytes.set(g, offset);
      offset += g.length;
      const [advance, bearing] = this.metrics(this.glyphs[i]!);
      view(hmtx).setUint16(4 * i, advance);
      view(hmtx).setInt16(4 * i + 2, bearing);
    });
    view(loca).setUint32(4 * count, offset);

    const written: [string, Uint8Array | undefined][] = [
      ['cvt ', this.tables.get('cvt ')],
      ['fpgm', this.tables.get('fpgm')],
      ['glyf', glyfBytes],
      ['head', head],
      ['hhea', hhea],
      ['hmtx', hmtx],
      ['loca', loca],
      ['maxp', maxp],
      ['prep', this.tables.get('prep')],
    ];
    return fontFile(written.filter((t): t is [string, Uint8Array] => t[1] !== undefined));
  }
}

function checksum(data: Uint8Array): number {
  let sum = 0;
  const full = data.length & ~3;
  const v = view(data);
  for (let i = 0; i < full; i += 4) sum = (sum + v.getUint32(i)) >>> 0;
  if (full < data.length) {
    let last = 0;
    for (let i = full; i < full + 4; i++) last = (last << 8) | (i < data.length ? data[i]! : 0);
    sum = (sum + (last >>> 0)) >>> 0;
  }
  return sum;
}

/** A TrueType file of these tables (sorted by tag), with its directory and checksums. */
function fontFile(tables: [string, Uint8Array][]): Uint8Array {
  const n = tables.length;
  const headerSize = 12 + 16 * n;
  const pad4 = (x: number): number => (x + 3) & ~3;
  const out = new Uint8Array(tables.reduce((sum, [, data]) => sum + pad4(data.length), headerSize));
  const ov = view(out);
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
