/** The barcode encoders read back by zbarimg, a reader that shares nothing with them. */
import fc from 'fast-check';
import { code128Modules, modulesPng, qrModules } from './barcodes.ts';
import { workDir, writeFile, zbar } from '../test/spec-tools.ts';

const work = workDir('label-barcodes-');
afterAll(() => work.remove());

const ascii = fc.string({
  unit: fc.integer({ min: 33, max: 126 }).map((c) => String.fromCharCode(c)),
  minLength: 1,
  maxLength: 30,
});
const tracking = fc.string({
  unit: fc.constantFrom(...'ABCDEFGHIJKLMNPQRSTUVWXYZ0123456789'),
  minLength: 8,
  maxLength: 20,
});

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

test('QR of 1 to 20 characters of the alphanumeric set (pinned to version 1) and of 21 (not) decodes to the same text', () => {
  const alphanumeric = fc.string({
    unit: fc.constantFrom(...'0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ $%*+-./:'),
    minLength: 1,
    maxLength: 20,
  });
  fc.assert(
    fc.property(alphanumeric, (s) => {
      expect(qrModules(s).size).toBe(21 + 8);
      expect(decodeQr(s)).toEqual([`QR-Code:${s}`]);
    }),
    { numRuns: 30 },
  );
  // Letters only: no numeric run that bwip-js could pack tighter, so 21 of them need version 2.
  const longest = 'ABCDEFGHIJKLMNOPQRS:';
  expect(decodeQr(longest)).toEqual([`QR-Code:${longest}`]);
  expect(qrModules(`${longest}T`).size).toBe(25 + 8);
  expect(decodeQr(`${longest}T`)).toEqual([`QR-Code:${longest}T`]);
}, 120_000);

test('QR across versions 1 to 15', () => {
  for (const len of [1, 20, 40, 80, 150, 250, 400]) {
    const s = Array.from({ length: len }, (_, i) => 'abcdefXYZ0189-'[i % 14]).join('');
    expect(decodeQr(s)).toEqual([`QR-Code:${s}`]);
  }
}, 60_000);
