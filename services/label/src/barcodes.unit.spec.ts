/** The PNG writer behind the barcode images. Decoding the barcodes with a real reader: barcodes.int.spec.ts (zbarimg). */
import { inflateSync } from 'node:zlib';
import { code128Modules, modulesPng, qrModules, storedZlib } from './barcodes.ts';

test('stored zlib streams inflate back to the input', () => {
  for (const n of [0, 1, 100, 65535, 65536, 200_000]) {
    const data = Uint8Array.from({ length: n }, (_, i) => (i * 31) & 0xff);
    expect(Buffer.from(inflateSync(storedZlib(data))).equals(Buffer.from(data))).toBe(true);
  }
});

test('a module grid becomes a 1-bit PNG of the scaled size, dark modules black', () => {
  const png = modulesPng(Uint8Array.from([1, 0, 0, 1]), 2, 2, 3, 2);
  expect(png.subarray(1, 4).toString('latin1')).toBe('PNG');
  expect(png.readUInt32BE(16)).toBe(6); // width: 2 modules x 3
  expect(png.readUInt32BE(20)).toBe(4); // height: 2 modules x 2
  const idat = png.indexOf('IDAT');
  const pixels = inflateSync(png.subarray(idat + 4, idat + 4 + png.readUInt32BE(idat - 4)));
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
