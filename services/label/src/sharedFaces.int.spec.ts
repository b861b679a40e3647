/** The faces shared by every PDF: why they exist, and that they answer as fontkit does without changing it. */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Font } from 'fontkit';
import { loadFonts } from './fonts.ts';
import { fontkit, sharedFace } from './sharedFaces.ts';

const sans = (loadFonts().files.Sans ?? '').split(', ')[0]!;

test('pdfkit takes a font only as bytes and parses it per document: a parsed face is refused (the day it is taken, sharedFaces.ts can go)', () => {
  const pdfDocument = createRequire(import.meta.url)('pdfmake/js/PDFDocument.js') as { default?: unknown };
  const PdfDocument = (pdfDocument.default ?? pdfDocument) as new (...args: unknown[]) => {
    font(src: unknown): unknown;
  };
  const doc = new PdfDocument({}, {}, {}, {}, {}, null);
  expect(() => doc.font(fontkit.create(readFileSync(sans)))).toThrow(
    'Not a supported font format or standard PDF font.',
  );
});

test('a shared face shapes as its fontkit face does, again and again, and the face is left as fontkit made it', () => {
  const bytes = readFileSync(sans);
  const face = fontkit.create(bytes) as Font;
  const shared = sharedFace(face, bytes);
  for (let round = 0; round < 2; round++) {
    for (const word of ['Tan ', 'Wei ', 'Ming', 'office ', 'AVAWA', 'Éçñüß']) {
      const mine = shared.layout(word);
      const theirs = face.layout(word);
      expect(mine.glyphs.map((g) => g.id)).toEqual(theirs.glyphs.map((g) => g.id));
      expect(mine.positions.map((p) => ({ ...p }))).toEqual(theirs.positions.map((p) => ({ ...p })));
      expect(mine.advanceWidth).toBe(theirs.advanceWidth);
    }
  }
  expect(Object.hasOwn(face, 'layout')).toBe(false);
  expect(Object.hasOwn(face, 'createSubset')).toBe(false);
  expect(shared.unitsPerEm).toBe(face.unitsPerEm);
  expect(shared.postscriptName).toBe(face.postscriptName);
});
