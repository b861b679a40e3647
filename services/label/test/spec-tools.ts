/**
 * The outside tools the label tests check the renderers with (Debian packages listed in
 * scripts/apt-packages.txt): qpdf, poppler-utils (pdfinfo, pdftoppm, pdftotext, pdffonts),
 * zbar-tools (zbarimg), chromium; and zpl-renderer-js (Zebrash compiled to WebAssembly) for ZPL.
 * None of them shares code with the renderers.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { loadReferenceData } from '@parcel-logistics/reference-data';
import { createLabelRenderer } from '../src/index.ts';
import type { LabelRenderer } from '../src/types.ts';
import { CHROMIUM_FLAGS } from '../../../test/support/browser.ts';

/** Runs a tool; its standard error (zbarimg's and chromium's D-Bus chatter) is dropped. */
export function run(command: string, args: string[], timeout = 60_000): string {
  return execFileSync(command, args, {
    stdio: ['ignore', 'pipe', 'ignore'],
    timeout,
    maxBuffer: 64 * 1024 * 1024,
  }).toString('utf8');
}

export interface WorkDir {
  dir: string;
  file: (name: string) => string;
  remove: () => void;
}

export function workDir(prefix: string): WorkDir {
  const dir = mkdtempSync(path.join(tmpdir(), prefix));
  return { dir, file: (name) => path.join(dir, name), remove: () => rmSync(dir, { recursive: true, force: true }) };
}

/**
 * A file's renderer (on the reference data in the repository, made before its tests: fonts and
 * template load then) and its work directory (`prefix`, removed after them).
 */
export function rendererAndWorkDir(prefix: string): { readonly renderer: LabelRenderer; readonly work: WorkDir } {
  let renderer: LabelRenderer | undefined;
  const work = workDir(prefix);
  beforeAll(async () => {
    renderer = await createLabelRenderer({ ref: loadReferenceData() });
  }, 60_000);
  afterAll(() => work.remove());
  return {
    get renderer() {
      if (!renderer) throw new Error('the renderer is made before the tests (beforeAll)');
      return renderer;
    },
    work,
  };
}

/** `qpdf --check`: exits non-zero (and so throws) on a damaged file. */
export function qpdfCheck(file: string): string {
  return run('qpdf', ['--check', file]);
}

export function pdfInfo(file: string): { pages: number; widthPt: number; heightPt: number } {
  const out = run('pdfinfo', [file]);
  const size = /Page size:\s+([\d.]+) x ([\d.]+) pts/.exec(out);
  const pages = /Pages:\s+(\d+)/.exec(out);
  if (!size || !pages) throw new Error(`pdfinfo: unexpected output\n${out}`);
  return { pages: Number(pages[1]), widthPt: Number(size[1]), heightPt: Number(size[2]) };
}

export const pdfText = (file: string): string => run('pdftotext', ['-enc', 'UTF-8', file, '-']);

/** Embedded font names, from `pdffonts`. */
export function pdfFonts(file: string): string[] {
  return run('pdffonts', [file])
    .split('\n')
    .slice(2)
    .map((l) => l.split(/\s+/)[0] ?? '')
    .filter(Boolean);
}

/** First page as PNG at `dpi` (pdftoppm), returns the PNG's path. */
export function pdfToPng(file: string, dpi = 300): string {
  const base = file.replace(/\.pdf$/, '');
  run('pdftoppm', ['-r', String(dpi), '-png', '-singlefile', '-f', '1', '-l', '1', file, base]);
  return `${base}.png`;
}

/** Symbols zbarimg finds in an image, as `TYPE:data` lines. */
export function zbar(png: string): string[] {
  try {
    return run('zbarimg', ['-q', png]).split('\n').filter(Boolean);
  } catch {
    return []; // zbarimg exits 4 when it finds nothing
  }
}

const HEADLESS_CHROMIUM_FLAGS = ['--headless', ...CHROMIUM_FLAGS];

function withProfile<T>(f: (profile: string) => T): T {
  const profile = mkdtempSync(path.join(tmpdir(), 'label-chromium-'));
  try {
    return f(profile);
  } finally {
    rmSync(profile, { recursive: true, force: true });
  }
}

/** Headless Chromium screenshot (800 x 1200 CSS px) of a local HTML file. */
export function chromiumScreenshot(htmlFile: string, png: string): string {
  withProfile((profile) =>
    run(
      'chromium',
      [
        ...HEADLESS_CHROMIUM_FLAGS,
        `--user-data-dir=${profile}`,
        '--window-size=800,1200',
        `--screenshot=${png}`,
        `file://${htmlFile}`,
      ],
      90_000,
    ),
  );
  return png;
}

/** The DOM after Chromium loaded the file (and ran whatever script it would run). */
export function chromiumDom(htmlFile: string): string {
  return withProfile((profile) =>
    run(
      'chromium',
      [...HEADLESS_CHROMIUM_FLAGS, `--user-data-dir=${profile}`, '--dump-dom', `file://${htmlFile}`],
      90_000,
    ),
  );
}

export function writeFile(file: string, data: string | Uint8Array): string {
  writeFileSync(file, data);
  return file;
}

// --- reading the three formats back --------------------------------------------------------

const ENTITIES: Record<string, string> = {
  '&amp;': '&',
  '&lt;': '<',
  '&gt;': '>',
  '&quot;': '"',
  '&#x27;': "'",
  '&#x60;': '`',
  '&#x3D;': '=',
};

/** Text of every `<p>` of the HTML label, entities decoded. */
export function htmlTexts(html: string): string[] {
  return [...html.matchAll(/<p\b[^>]*>([^<]*)<\/p>/g)].map((m) =>
    (m[1] ?? '').replace(/&(?:amp|lt|gt|quot|#x27|#x60|#x3D);/g, (e) => ENTITIES[e] ?? e),
  );
}

export interface ZplCommand {
  /** `^XA`, `^FO`, `~JA`... */
  name: string;
  params: string;
}

/**
 * Splits ZPL into commands the way a printer reads it: a command starts at every `^` or `~`,
 * and its name is the next two characters (one for `^A`, the font command, when followed by a
 * font name and orientation).
 */
export function zplCommands(zpl: string): ZplCommand[] {
  const out: ZplCommand[] = [];
  const re = /([\^~])([^^~]*)/g;
  for (const m of zpl.matchAll(re)) {
    const body = m[2] ?? '';
    const name = `${m[1]}${body.slice(0, 2)}`;
    out.push({ name, params: body.slice(2) });
  }
  return out;
}

/** Field data of every text field (`^FB ... ^FH^FD data ^FS`), ^FH and ^FB escapes undone. */
export function zplTexts(zpl: string): string[] {
  return [...zpl.matchAll(/\^FB[^^]*\^FH\^FD([^^~]*)\^FS/g)].map((m) =>
    (m[1] ?? '')
      .replace(/_([0-9A-Fa-f]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)))
      .replace(/\\\\/g, '\\'),
  );
}
