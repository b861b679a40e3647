/**
 * Faces parsed once and shared by every PDF, through fontkit's and pdfkit's public interfaces.
 *
 * pdfkit takes a font only as bytes (or a file name) and parses it with fontkit for every new
 * document (sharedFaces.int.spec.ts fails the day it takes a parsed font). Parsed per label, the
 * fonts made a PDF about 7 times as costly (README, Performance). So pdfkit is handed an 8-byte
 * marker, and a format registered with `fontkit.registerFormat` turns the marker back into the
 * face parsed at start, seen through a {@link SharedFace}: the face with two of its public
 * methods answered from work kept across documents. Nothing of fontkit's is changed or reached
 * into: the face itself stays as fontkit made it.
 * - `layout`: the shaping of each word, remembered (pdfkit shapes word by word; a label repeats
 *   the same words: headings, carrier, service, country).
 * - `createSubset`: for a TrueType face, subset.ts writes the subset from the file's bytes
 *   (fontkit's own encoder re-encodes the hinting tables value by value and decodes every glyph
 *   outline again, for every document); CFF faces (Noto Sans CJK) keep fontkit's.
 */
import { createRequire } from 'node:module';
import * as fontkitModule from 'fontkit';
import type { Font } from 'fontkit';
import { TrueTypeSubset, trueTypeTables } from './subset.ts';

interface FontkitApi {
  create(buffer: Uint8Array, postscriptName?: string): unknown;
  registerFormat(format: unknown): void;
}

export const fontkit = fontkitModule as unknown as FontkitApi;

// --- the marker format -------------------------------------------------------------------

const MAGIC = [0x50, 0x4c, 0x42, 0x4c]; // "PLBL"
const sharedFaces = new Map<number, Font>();
let nextFaceId = 1;

const isMarker = (buf: Uint8Array): boolean => buf.length === 8 && MAGIC.every((b, i) => buf[i] === b);

// fontkit builds a font with `new format(stream)`; a constructor that returns an object yields
// that object, here the shared face.
function SharedFaceFormat(stream: { buffer: Uint8Array }): Font | undefined {
  const b = stream.buffer;
  return sharedFaces.get(new DataView(b.buffer, b.byteOffset, 8).getUint32(4));
}
SharedFaceFormat.probe = isMarker;

let registered = false;
function registerMarkerFormat(): void {
  if (registered) return;
  registered = true;
  // pdfkit requires fontkit as CommonJS; under Node's ESM loader `import` gives a second copy
  // of the module (and under Jest the import is the copy pdfkit sees), so register in both.
  const cjs = createRequire(import.meta.url)('fontkit') as FontkitApi;
  fontkit.registerFormat(SharedFaceFormat);
  if (cjs !== fontkit) cjs.registerFormat(SharedFaceFormat);
}

/** The marker pdfkit is given for `font` (parsed from `bytes`): it opens as the shared face. */
export function markerFor(font: Font, bytes: Uint8Array): Uint8Array {
  registerMarkerFormat();
  const id = nextFaceId++;
  sharedFaces.set(id, sharedFace(font, bytes));
  const m = new Uint8Array(8);
  m.set(MAGIC);
  new DataView(m.buffer).setUint32(4, id);
  return m;
}

// --- the shared face -----------------------------------------------------------------------

/** Words remembered per face, least recently used dropped first. */
const SHAPING_CACHE_SIZE = 20_000;

interface Position {
  xAdvance: number;
  yAdvance: number;
  xOffset: number;
  yOffset: number;
}
interface Shaped {
  glyphs: unknown[];
  positions: Position[];
}
type Layout = (text: string, features?: unknown, ...more: unknown[]) => Shaped;

/** What pdfkit reads of a fontkit GlyphRun; `advanceWidth` sums the (by then scaled) positions. */
class ShapedRun {
  glyphs: unknown[];
  positions: Position[];
  constructor(glyphs: unknown[], positions: Position[]) {
    this.glyphs = glyphs;
    this.positions = positions;
  }
  get advanceWidth(): number {
    let w = 0;
    for (const p of this.positions) w += p.xAdvance;
    return w;
  }
}

/**
 * fontkit's shaping (GSUB/GPOS) of each text, remembered. Every call gets fresh position
 * objects, because pdfkit scales them in place; the glyph objects are fontkit's own cached ones.
 */
function rememberedLayout(layout: Layout): Layout {
  const cache = new Map<string, Shaped>();
  return (text, features, ...more) => {
    if (more.some((m) => m !== undefined) || typeof text !== 'string') return layout(text, features, ...more);
    const key = features === undefined ? text : `${text}\u0000${JSON.stringify(features)}`;
    let hit = cache.get(key);
    if (hit) {
      cache.delete(key);
      cache.set(key, hit);
    } else {
      const run = layout(text, features);
      hit = {
        glyphs: [...run.glyphs],
        positions: run.positions.map((p) => ({
          xAdvance: p.xAdvance,
          yAdvance: p.yAdvance,
          xOffset: p.xOffset,
          yOffset: p.yOffset,
        })),
      };
      cache.set(key, hit);
      if (cache.size > SHAPING_CACHE_SIZE) cache.delete(cache.keys().next().value as string);
    }
    return new ShapedRun(
      hit.glyphs.slice(),
      hit.positions.map((p) => ({ ...p })),
    );
  };
}

/** `font` as every document sees it: its own properties and methods, but `layout` and `createSubset`. */
export function sharedFace(font: Font, bytes: Uint8Array): Font {
  const own = font as unknown as { layout: Layout; createSubset(): unknown };
  const layout = rememberedLayout(own.layout.bind(font));
  const tables = trueTypeTables(bytes);
  const createSubset = tables ? () => new TrueTypeSubset(tables) : () => own.createSubset();
  return new Proxy(font, {
    get(target, key) {
      if (key === 'layout') return layout;
      if (key === 'createSubset') return createSubset;
      // The face itself as receiver: fontkit's getters and methods see the object they were made for.
      const value: unknown = Reflect.get(target, key, target);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}
