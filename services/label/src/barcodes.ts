/**
 * Barcodes of the tracking number: Code 128 (ISO/IEC 15417) and QR (ISO/IEC 18004, level M),
 * encoded by bwip-js, drawn here as 1-bit PNGs for the PDF and the HTML. bwip-js's own PNG
 * output costs several milliseconds a symbol (most of it drawing and compressing); its module
 * matrices (`raw`) cost 0.2 ms (Code 128) and about 0.7 ms (QR with the fixed mask below), and
 * `modulesPng` below turns them into images in microseconds. The renderer tests decode
 * every label with zbarimg.
 */
import { crc32, deflateSync } from 'node:zlib';
import bwipjs from 'bwip-js';

export interface BarcodeImage {
  /** `data:image/png;base64,...` */
  dataUri: string;
  /** Size of the symbol in modules, quiet zone included. */
  widthModules: number;
  heightModules: number;
}

export interface Barcodes {
  code128: BarcodeImage;
  qr: BarcodeImage;
}

/** Quiet zones in modules (ISO/IEC 15417: 10 X for Code 128; ISO/IEC 18004: 4 X for QR). */
const CODE128_QUIET = 10;
const QR_QUIET = 4;
/** Pixels per module in the PNGs, and rows of the Code 128 PNG (stretched to the bar height). */
const CODE128_SCALE = 3;
const CODE128_ROWS = 4;
const QR_SCALE = 4;

// --- Encoding (bwip-js) -------------------------------------------------------------------

interface LinearSymbol {
  /** Bar and space widths in modules, starting with a bar. */
  sbs: number[];
}
interface MatrixSymbol {
  /** Row by row, 1 = dark. */
  pixs: number[];
  pixx: number;
  pixy: number;
}

/** Dark/light per module across the Code 128 symbol, quiet zones included (1 = dark). */
export function code128Modules(data: string): Uint8Array {
  const [symbol] = bwipjs.raw('code128', data, '') as unknown as LinearSymbol[];
  const widths = symbol?.sbs ?? [];
  const total = widths.reduce((a, b) => a + b, 0) + 2 * CODE128_QUIET;
  const modules = new Uint8Array(total);
  let x = CODE128_QUIET;
  widths.forEach((w, i) => {
    if (i % 2 === 0) modules.fill(1, x, x + w);
    x += w;
  });
  return modules;
}

/**
 * QR options: error correction level M and always data mask pattern 100 (bwip-js numbers the
 * eight patterns 1 to 8, so `mask=5`).
 *
 * ISO/IEC 18004 lets an encoder apply any of the eight masks (the mask is written in the
 * symbol's format information, and every decoder reads it from there); the penalty evaluation of
 * section 7.8.3 that picks "the best" one is a recommendation. In bwip-js that evaluation
 * (masking and scoring the symbol eight times) is more than half of a QR encoding, and the QR
 * encoding was most of a fresh parcel's HTML label. Pattern 100 was chosen by measurement over
 * random tracking numbers: zbarimg decodes every symbol with each of the eight masks at 2 pixels
 * per module or more, and pattern 100 comes closest to the per-symbol best penalty score (mean
 * 2 % above it, the best of the eight; highest score 4 % above the highest chosen one), so a
 * fixed 100 gives up nearly nothing a scanner would notice. barcodes.int.spec.ts and the PDF and
 * HTML tests decode the symbols with zbarimg.
 */
const QR_OPTIONS = 'eclevel=M mask=5';

/**
 * Up to 20 characters of QR's alphanumeric set fit version 1 (21 x 21) at level M, which is the
 * version bwip-js would pick for them; saying so spares it the search (about 12 % of a QR).
 * Every tracking number of decisions.md is such a string. Anything else: bwip-js picks.
 */
const QR_VERSION_1_ALPHANUMERIC = /^[0-9A-Z $%*+\-./:]{1,20}$/;

/** QR modules (level M, mask pattern 100) with the quiet zone, row by row (1 = dark). */
export function qrModules(data: string): { size: number; modules: Uint8Array } {
  const options = QR_VERSION_1_ALPHANUMERIC.test(data) ? `${QR_OPTIONS} version=1` : QR_OPTIONS;
  const [symbol] = bwipjs.raw('qrcode', data, options) as unknown as MatrixSymbol[];
  if (!symbol) throw new Error('bwip-js drew no QR symbol');
  const size = symbol.pixx + 2 * QR_QUIET;
  const modules = new Uint8Array(size * size);
  for (let y = 0; y < symbol.pixy; y++) {
    for (let x = 0; x < symbol.pixx; x++)
      modules[(y + QR_QUIET) * size + x + QR_QUIET] = symbol.pixs[y * symbol.pixx + x] ? 1 : 0;
  }
  return { size, modules };
}

// --- PNG -----------------------------------------------------------------------------------

function chunk(type: string, data: Uint8Array): Buffer {
  const out = Buffer.alloc(12 + data.length);
  out.writeUInt32BE(data.length, 0);
  out.write(type, 4, 'latin1');
  out.set(data, 8);
  out.writeUInt32BE(crc32(out.subarray(4, 8 + data.length)), 8 + data.length);
  return out;
}

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
const IEND = chunk('IEND', new Uint8Array(0));

/**
 * 1-bit greyscale PNG of a module grid (`cols` x `rows`, 1 = dark), each module drawn as
 * `scaleX` x `scaleY` pixels. Its image data is stored, not compressed (zlib level 0): the
 * images are a few kilobytes, and compressing them costs more than the bytes it saves. pngjs,
 * the PNG library, writes 8-bit pixels only: measured, it more than doubled a fresh parcel's
 * barcode images (0.57 to 1.35 ms for both, bwip-js's encoding included).
 */
export function modulesPng(modules: Uint8Array, cols: number, rows: number, scaleX: number, scaleY: number): Buffer {
  const width = cols * scaleX;
  const stride = Math.ceil(width / 8) + 1;
  const raw = Buffer.alloc(stride * rows * scaleY);
  const line = new Uint8Array(stride); // filter byte 0, then the pixels; bit set = white
  for (let r = 0; r < rows; r++) {
    line.fill(0);
    for (let x = 0; x < width; x++) {
      if (!modules[r * cols + Math.floor(x / scaleX)]) line[1 + (x >> 3)]! |= 0x80 >> (x & 7);
    }
    for (let k = 0; k < scaleY; k++) raw.set(line, (r * scaleY + k) * stride);
  }
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(rows * scaleY, 4);
  ihdr[8] = 1; // bit depth
  ihdr[9] = 0; // greyscale
  return Buffer.concat([PNG_SIGNATURE, chunk('IHDR', ihdr), chunk('IDAT', deflateSync(raw, { level: 0 })), IEND]);
}

const dataUri = (buf: Buffer): string => `data:image/png;base64,${buf.toString('base64')}`;

function encodeBarcodes(data: string): Barcodes {
  const linear = code128Modules(data);
  const { size, modules } = qrModules(data);
  const c128 = modulesPng(linear, linear.length, 1, CODE128_SCALE, CODE128_ROWS);
  const qr = modulesPng(modules, size, size, QR_SCALE, QR_SCALE);
  return {
    code128: { dataUri: dataUri(c128), widthModules: linear.length, heightModules: CODE128_ROWS },
    qr: { dataUri: dataUri(qr), widthModules: size, heightModules: size },
  };
}

/** Encoded barcodes per payload, least recently used dropped first. */
export function barcodeCache(capacity: number): (data: string) => Barcodes {
  const cache = new Map<string, Barcodes>();
  return (data) => {
    if (capacity <= 0) return encodeBarcodes(data);
    const hit = cache.get(data);
    if (hit) {
      cache.delete(data);
      cache.set(data, hit);
      return hit;
    }
    const made = encodeBarcodes(data);
    cache.set(data, made);
    if (cache.size > capacity) cache.delete(cache.keys().next().value as string);
    return made;
  };
}
