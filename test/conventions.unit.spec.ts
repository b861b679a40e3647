/**
 * docs/conventions.md "Tracking numbers": "A client can check a number before sending it", with a
 * JavaScript function. The function as the page shows it must agree with the service's own check
 * (packages/domain `isValidTrackingNumber`) on numbers the service makes, on every one of them
 * with one symbol changed, and on malformed values.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { isValidTrackingNumber, newTrackingNumber, TRACKING_ALPHABET } from '@parcel-logistics/domain';
import { fencedBlocks } from './support/readme.ts';

const page = readFileSync(path.resolve(import.meta.dirname, '../docs/conventions.md'), 'utf8');

function shownCheck(): (value: string) => boolean {
  const js = fencedBlocks(page).filter((b) => b.lang === 'js');
  expect(js).toHaveLength(1);
  const name = /function\s+(\w+)/.exec(js[0]!.text)?.[1];
  expect(name).toBeDefined();
  // The page's code as a client would paste it, then its function.
  return new Function(`${js[0]!.text}\nreturn ${name};`)() as (value: string) => boolean;
}

const check = shownCheck();

test('the page shows the alphabet and the format the service uses', () => {
  expect(page).toContain(`\`${TRACKING_ALPHABET}\``);
  expect(page).toContain(`'${TRACKING_ALPHABET}'`);
});

test('numbers the service makes pass; every single wrong symbol fails, as in the service', () => {
  for (let n = 0; n < 50; n++) {
    const number = newTrackingNumber();
    expect(check(number)).toBe(true);
    for (let i = 2; i < number.length; i++) {
      for (const symbol of TRACKING_ALPHABET) {
        if (symbol === number[i]) continue;
        const changed = number.slice(0, i) + symbol + number.slice(i + 1);
        expect(check(changed)).toBe(isValidTrackingNumber(changed));
        expect(check(changed)).toBe(false);
      }
    }
  }
});

test.each([
  ['the README example', 'PXKSEZ5PQPDFNDV4PQ'],
  ['well-formed, and no parcel has it', 'PX0000000000000000'],
  ['lower case', 'pxkSEZ5PQPDFNDV4PQ'],
  ['an I', 'PXKSEZ5PQPDFNDV4PI'],
  ['17 characters', 'PXKSEZ5PQPDFNDV4P'],
  ['19 characters', 'PXKSEZ5PQPDFNDV4PQ0'],
  ['another prefix', 'PYKSEZ5PQPDFNDV4PQ'],
  ['empty', ''],
])('%s: the same verdict as the service', (_, value) => {
  expect(check(value)).toBe(isValidTrackingNumber(value));
});
