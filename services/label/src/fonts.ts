/**
 * Label fonts: found and read once at start, parsed once, and shared by every PDF afterwards
 * (sharedFaces.ts: how pdfkit gets the parsed faces).
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { Font } from 'fontkit';
import { fontkit, markerFor } from './sharedFaces.ts';
import type { TextMeasure } from './types.ts';

const DEFAULT_FONTS_DIR = '/usr/share/fonts';

/** Font families known to the PDF documents. */
export type Family = 'Sans' | 'Thai' | 'CJK_SC' | 'CJK_TC' | 'CJK_HK' | 'CJK_JP' | 'CJK_KR';
export type CjkFamily = Extract<Family, `CJK_${string}`>;

export interface Run {
  text: string;
  font: Family;
}

interface Face {
  normal: Font;
  bold: Font;
}

type Descriptor = { normal: string; bold: string };

export interface FontSet {
  /** pdfmake font dictionary; a fresh object per call because pdfmake rewrites it in place. */
  descriptors(): Record<string, Descriptor>;
  /** Virtual file system handed to pdfmake: serves the markers, never touches the disk. */
  vfs: { existsSync(name: unknown): boolean; readFileSync(name: string): Uint8Array };
  /** Standard PDF fonts pdfkit may load by name (used only when no font file was found). */
  standardFonts: ReadonlySet<string>;
  /** Splits display text into runs by the family that has its glyphs; '?' for glyphs none has. */
  runs(text: string, cjk: CjkFamily): Run[];
  measure: TextMeasure;
  /** Files loaded, by role. */
  files: Record<string, string>;
}

const CANDIDATES = {
  sans: ['DejaVuSans.ttf'],
  sansBold: ['DejaVuSans-Bold.ttf'],
  thai: ['Loma.ttf', 'Garuda.ttf', 'NotoSansThai-Regular.ttf'],
  thaiBold: ['Loma-Bold.ttf', 'Garuda-Bold.ttf', 'NotoSansThai-Bold.ttf'],
  cjk: ['NotoSansCJK-Regular.ttc'],
  cjkBold: ['NotoSansCJK-Bold.ttc'],
} as const;

const CJK_FACES: Record<CjkFamily, string> = {
  CJK_SC: 'NotoSansCJKsc',
  CJK_TC: 'NotoSansCJKtc',
  CJK_HK: 'NotoSansCJKhk',
  CJK_JP: 'NotoSansCJKjp',
  CJK_KR: 'NotoSansCJKkr',
};

function indexFontFiles(dir: string): Map<string, string> {
  const found = new Map<string, string>();
  const walk = (d: string, depth: number): void => {
    let entries;
    try {
      entries = readdirSync(d, { withFileTypes: true });
    } catch {
      return;
    }
    for (const e of entries) {
      const p = path.join(d, e.name);
      if (e.isDirectory() && depth < 6) walk(p, depth + 1);
      else if (/\.(ttf|otf|ttc)$/i.test(e.name) && !found.has(e.name)) found.set(e.name, p);
    }
  };
  walk(dir, 0);
  return found;
}

function parse(fileBytes: Map<string, Buffer>, file: string, postscriptName?: string): { font: Font; bytes: Buffer } {
  let bytes = fileBytes.get(file);
  if (!bytes) {
    bytes = readFileSync(file);
    fileBytes.set(file, bytes);
  }
  const font = fontkit.create(bytes, postscriptName) as Font;
  if (!font || typeof (font as { glyphForCodePoint?: unknown }).glyphForCodePoint !== 'function') {
    throw new Error(`${file}: not a single font face${postscriptName ? ` (looked for ${postscriptName})` : ''}`);
  }
  return { font, bytes };
}

// --- Latin-1 coverage of the standard-font fallback ----------------------------------------

const winAnsiOk = (cp: number): boolean => (cp >= 0x20 && cp <= 0x7e) || (cp >= 0xa0 && cp <= 0xff);
/** Rough Helvetica widths (em), only for the no-font fallback. */
const helveticaEm = (cp: number, bold: boolean): number =>
  (cp === 0x20 ? 0.28 : (cp >= 0x41 && cp <= 0x5a) || cp === 0x4d ? 0.72 : 0.6) * (bold ? 1.06 : 1);

/** Finds and parses the label fonts; a collection (.ttc) is read once for all its faces. */
export function loadFonts(fontsDir: string = DEFAULT_FONTS_DIR): FontSet {
  const index = indexFontFiles(fontsDir);
  const pick = (names: readonly string[]): string | undefined =>
    names.map((n) => index.get(n)).find((p) => p !== undefined);
  const files: Record<string, string> = {};
  const store = new Map<string, Uint8Array>();
  const descriptors: Record<string, Descriptor> = {};
  const bytes = new Map<string, Buffer>();

  const addFamily = (
    family: Family,
    regular: string | undefined,
    bold: string | undefined,
    postscript?: [string, string],
  ): Face | undefined => {
    if (!regular) return undefined;
    const normal = parse(bytes, regular, postscript?.[0]);
    const boldFace = bold ? parse(bytes, bold, postscript?.[1]) : normal;
    store.set(`${family}-normal`, markerFor(normal.font, normal.bytes));
    store.set(`${family}-bold`, markerFor(boldFace.font, boldFace.bytes));
    descriptors[family] = { normal: `${family}-normal`, bold: `${family}-bold` };
    files[family] = bold ? `${regular}, ${bold}` : regular;
    return { normal: normal.font, bold: boldFace.font };
  };

  const sans = addFamily('Sans', pick(CANDIDATES.sans), pick(CANDIDATES.sansBold));
  const thai = addFamily('Thai', pick(CANDIDATES.thai), pick(CANDIDATES.thaiBold));
  const cjkRegular = pick(CANDIDATES.cjk);
  const cjkBold = pick(CANDIDATES.cjkBold);
  let cjk: Face | undefined;
  for (const [family, base] of Object.entries(CJK_FACES) as [CjkFamily, string][]) {
    const face = addFamily(family, cjkRegular, cjkBold, [`${base}-Regular`, `${base}-Bold`]);
    if (family === 'CJK_SC') cjk = face;
  }
  if (!sans) {
    // No DejaVu Sans: pdfkit's built-in Helvetica, Latin-1 only; other glyphs print as '?'.
    descriptors.Sans = { normal: 'Helvetica', bold: 'Helvetica-Bold' };
    files.Sans = 'Helvetica (PDF standard font, not embedded)';
  }

  const families: { family: 'Sans' | 'Thai' | 'CJK'; face: Face }[] = [];
  if (sans) families.push({ family: 'Sans', face: sans });
  if (thai) families.push({ family: 'Thai', face: thai });
  if (cjk) families.push({ family: 'CJK', face: cjk });

  // Code point -> index into `families` (-1: no font has it).
  const coverage = new Map<number, number>();
  const familyOf = (cp: number): number => {
    let f = coverage.get(cp);
    if (f === undefined) {
      f = families.findIndex(({ face }) => face.normal.hasGlyphForCodePoint(cp));
      if (f === -1 && !sans && winAnsiOk(cp)) f = -2;
      coverage.set(cp, f);
    }
    return f;
  };

  const widthCache = [new Map<number, number>(), new Map<number, number>()];
  const emWidth = (cp: number, bold: boolean): number => {
    const cache = widthCache[bold ? 1 : 0] as Map<number, number>;
    let w = cache.get(cp);
    if (w === undefined) {
      const f = familyOf(cp);
      const entry = f >= 0 ? families[f] : undefined;
      if (entry) {
        const face = bold ? entry.face.bold : entry.face.normal;
        w = face.glyphForCodePoint(cp).advanceWidth / face.unitsPerEm;
      } else if (sans) {
        const face = bold ? sans.bold : sans.normal;
        w = face.glyphForCodePoint(0x3f).advanceWidth / face.unitsPerEm;
      } else {
        w = helveticaEm(f === -2 ? cp : 0x3f, bold);
      }
      cache.set(cp, w);
    }
    return w;
  };

  const measure: TextMeasure = (text, sizePt, bold) => {
    let em = 0;
    for (let i = 0; i < text.length; i++) {
      const cp = text.codePointAt(i) ?? 0;
      if (cp > 0xffff) i++;
      em += emWidth(cp, bold);
    }
    return em * sizePt;
  };

  const runs = (text: string, cjkFamily: CjkFamily): Run[] => {
    const out: Run[] = [];
    let cur = '';
    let curFont: Family = 'Sans';
    for (const ch of text) {
      if (ch === '\n') {
        cur += ch;
        continue;
      }
      const f = familyOf(ch.codePointAt(0) ?? 0);
      const fam = f >= 0 ? families[f]?.family : undefined;
      const font: Family = fam === 'CJK' ? cjkFamily : fam === 'Thai' ? 'Thai' : 'Sans';
      const glyph = f === -1 ? '?' : ch;
      if (font !== curFont && cur) {
        out.push({ text: cur, font: curFont });
        cur = '';
      }
      curFont = font;
      cur += glyph;
    }
    if (cur) out.push({ text: cur, font: curFont });
    return out;
  };

  return {
    descriptors: () => Object.fromEntries(Object.entries(descriptors).map(([k, d]) => [k, { ...d }])),
    vfs: {
      existsSync: (name) => typeof name === 'string' && store.has(name),
      readFileSync: (name) => store.get(name) as Uint8Array,
    },
    standardFonts: new Set(sans ? [] : ['Helvetica', 'Helvetica-Bold']),
    runs,
    measure,
    files,
  };
}

/** CJK glyph variant for the destination: Japanese, Korean, traditional or simplified Chinese. */
export function cjkFamilyFor(country: string): CjkFamily {
  switch (country) {
    case 'JP':
      return 'CJK_JP';
    case 'KR':
      return 'CJK_KR';
    case 'TW':
      return 'CJK_TC';
    case 'HK':
      return 'CJK_HK';
    default:
      return 'CJK_SC';
  }
}
