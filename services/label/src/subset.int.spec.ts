/**
 * The TrueType subsets written by subset.ts, parsed back by fontkit: the same glyphs (outline
 * and advance) as the installed font, and as fontkit's own subset writer.
 */
import { readFileSync } from 'node:fs';
import * as fontkit from 'fontkit';
import type { Font } from 'fontkit';
import { loadFonts } from './fonts.ts';
import { TrueTypeSubset, trueTypeTables } from './subset.ts';

interface Subset {
  glyphs: number[];
  includeGlyph(id: number): number;
  encode(): Uint8Array;
}

const open = (file: string): Font => (fontkit as unknown as { create(b: Buffer): Font }).create(readFileSync(file));
const createSubset = (f: Font): Subset => (f as unknown as { createSubset(): Subset }).createSubset();

const files = loadFonts().files;
const faces = [...new Set([files.Sans, files.Thai].flatMap((f) => (f ?? '').split(', ')).filter(Boolean))];

test('the label fonts are TrueType faces subset.ts writes (DejaVu Sans, Loma)', () => {
  expect(faces.length).toBeGreaterThanOrEqual(4);
  for (const file of faces) expect(trueTypeTables(readFileSync(file))).toBeDefined();
});

test.each(faces)('%s: every glyph of the subset has the outline and advance of the original', (file) => {
  const original = open(file);
  const text = 'Tan Wei Ming, 10 Bayfront Avenue #12-03 Éçñüß ÅÆØ … ☐☒ 0123456789 กรุงเทพมหานคร ǻǽ';
  const sub = new TrueTypeSubset(trueTypeTables(readFileSync(file))!);
  const ref = createSubset(original);
  for (const ch of text) {
    const g = original.glyphForCodePoint(ch.codePointAt(0)!);
    if (g.id === 0) continue; // not in this face
    sub.includeGlyph(g.id);
    ref.includeGlyph(g.id);
  }
  const bytes = sub.encode();
  const refBytes = ref.encode();
  const back = (fontkit as unknown as { create(b: Buffer): Font }).create(Buffer.from(bytes));
  const refBack = (fontkit as unknown as { create(b: Buffer): Font }).create(Buffer.from(refBytes));
  expect(back.numGlyphs).toBe(sub.glyphs.length); // composite glyphs' components included
  expect(back.numGlyphs).toBe(refBack.numGlyphs);
  for (let i = 0; i < back.numGlyphs; i++) {
    const g = back.getGlyph(i);
    const o = original.getGlyph(sub.glyphs[i]!);
    expect(g.path.toSVG()).toBe(o.path.toSVG());
    expect(g.advanceWidth).toBe(o.advanceWidth);
    expect(g.path.toSVG()).toBe(refBack.getGlyph(i).path.toSVG());
  }
  expect(back.unitsPerEm).toBe(original.unitsPerEm);
});
