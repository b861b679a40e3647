/** The barcode encoders read back by zbarimg, a reader that shares nothing with them. */
import fc from 'fast-check';
import { code128Modules, modulesPng, qrModules } from './barcodes.ts';
import { workDir, writeFile, zbar } from './spec-tools.ts';

const work = workDir('label-barcodes-');
afterAll(() => work.remove());

const ascii = fc.string({ unit: fc.integer({ min: 33, max: 126 }).map((c) => String.fromCharCode(c)), minLength: 1, maxLength: 30 });
const tracking = fc.string({ unit: fc.constantFrom(...'ABCDEFGHIJKLMNPQRSTUVWXYZ0123456789'), minLength: 8, maxLength: 20 });


let n = 0;
function decodeQr(data: string): string[] {
  const q = qrModules(data);
  return zbar(writeFile(work.file(`q${n++}.png`), modulesPng(q.modules, q.size, q.size, 4, 4)));
}
function decodeCode128(data: string): string[] {
  const m = code128Modules(data);
  return zbar(writeFile(work.file(`c${n++}.png`), modulesPng(m, m.length, 1, 3, 60)));
}

test('Code 128 of tracking numbers and of any printable ASCII decodes to the same text', () => {
  fc.assert(
    fc.property(fc.oneof(tracking, ascii), (s) => {
      expect(decodeCode128(s)).toEqual([`CODE-128:${s}`]);
    }),
    { numRuns: 40 },
  );
}, 120_000);

test('QR of tracking numbers and of any printable ASCII decodes to the same text', () => {
  fc.assert(
    fc.property(fc.oneof(tracking, ascii), (s) => {
      expect(decodeQr(s)).toEqual([`QR-Code:${s}`]);
    }),
    { numRuns: 40 },
  );
}, 120_000);

test('QR across versions 1 to 15', () => {
  for (const len of [1, 20, 40, 80, 150, 250, 400]) {
    const s = Array.from({ length: len }, (_, i) => 'abcdefXYZ0189-'[i % 14]).join('');
    expect(decodeQr(s)).toEqual([`QR-Code:${s}`]);
  }
}, 60_000);
