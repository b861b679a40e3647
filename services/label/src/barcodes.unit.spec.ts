/** The PNG writer behind the barcode images. Decoding the barcodes with a real reader: barcodes.int.spec.ts (zbarimg). */
import { inflateSync } from 'node:zlib';
import { code128Modules, modulesPng, qrModules } from './barcodes.ts';

/** The image data of a PNG, inflated: rows of (filter byte, pixels). */
function pixelRows(png: Buffer): Buffer {
  const idat = png.indexOf('IDAT');
  return inflateSync(png.subarray(idat + 4, idat + 4 + png.readUInt32BE(idat - 4)));
}

test('image data of any size (2 to 200 000 bytes, one stored block or several) inflates back to every pixel', () => {
  for (const [cols, rows] of [
    [1, 1],
    [8, 1],
    [800, 1],
    [8 * 65_534, 1],
    [8 * 65_535, 1],
    [8 * 99, 2_000],
  ] as const) {
    const modules = Uint8Array.from({ length: cols * rows }, (_, i) => ((i * 31) >> 3) & 1);
    const stride = Math.ceil(cols / 8) + 1;
    const data = pixelRows(modulesPng(modules, cols, rows, 1, 1));
    expect(data.length).toBe(stride * rows);
    for (let i = 0; i < modules.length; i += 97) {
      const [r, x] = [Math.floor(i / cols), i % cols];
      const white = (data[r * stride + 1 + (x >> 3)]! >> (7 - (x & 7))) & 1;
      expect(white).toBe(modules[i] ? 0 : 1);
    }
  }
});

test('a module grid becomes a 1-bit PNG of the scaled size, dark modules black', () => {
  const png = modulesPng(Uint8Array.from([1, 0, 0, 1]), 2, 2, 3, 2);
  expect(png.subarray(1, 4).toString('latin1')).toBe('PNG');
  expect(png.readUInt32BE(16)).toBe(6); // width: 2 modules x 3
  expect(png.readUInt32BE(20)).toBe(4); // height: 2 modules x 2
  const pixels = pixelRows(png);
  // rows of (filter byte, 1 byte of pixels); a set bit is white
  expect([...pixels]).toEqual([0, 0b00011100, 0, 0b00011100, 0, 0b11100000, 0, 0b11100000]);
});

test('quiet zones: 10 modules around Code 128, 4 around QR', () => {
  const linear = code128Modules('PX7K2M9Q4T8W3N5');
  expect([...linear.subarray(0, 10)]).toEqual(Array(10).fill(0));
  expect(linear[10]).toBe(1);
  const { size, modules } = qrModules('PX7K2M9Q4T8W3N5');
  expect(size).toBe(21 + 8); // version 1 holds a tracking number
  expect([...modules.subarray(0, size * 4)].every((m) => m === 0)).toBe(true);
  expect(modules[4 * size + 4]).toBe(1); // the finder pattern's corner
});
