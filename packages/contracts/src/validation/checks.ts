/**
 * Small reusable checkers for create-order fields (interface B).
 *
 * A checker receives a value that is present (not missing, null, "" or white space only: the
 * rule engine handles those) and returns the value to store, or `undefined` when the value is
 * invalid (wrong type, length, format, range or value).
 *
 * Lengths count Unicode code points, so an emoji or a CJK character outside the BMP counts as
 * one character, not two UTF-16 units. Strings that are not well-formed UTF-16 (a lone
 * surrogate, possible through a `\ud800` JSON escape) are invalid: they cannot be stored or
 * printed on a label as sent.
 */

/** A JSON Schema (2020-12) fragment: how the reference describes what a checker accepts. */
export type JsonSchema = Record<string, unknown>;

/** A checker, and the JSON Schema of the values it accepts as sent (the reference is generated from it). */
export type Checker<T> = ((raw: unknown) => T | undefined) & { readonly schema: JsonSchema };

const describedBy = <T>(check: (raw: unknown) => T | undefined, schema: JsonSchema): Checker<T> =>
  Object.assign(check, { schema });

/** Reads an own property only: never the prototype chain, whatever the object holds. */
export function own(source: object, key: string): unknown {
  return Object.hasOwn(source, key) ? (source as Record<string, unknown>)[key] : undefined;
}

/** Missing, null, empty string or white space only: "not given" (`require` when required). */
export function isBlank(raw: unknown): boolean {
  return raw === undefined || raw === null || (typeof raw === 'string' && raw.trim() === '');
}

/** A JSON object: not null, not an array. */
export function isObject(raw: unknown): raw is Record<string, unknown> {
  return typeof raw === 'object' && raw !== null && !Array.isArray(raw);
}

function codePointLength(s: string): number {
  let n = 0;
  for (const _ of s) n++;
  return n;
}

/** U+0000-U+001F and U+007F; `multiline` lets TAB, LF and CR through. */
function hasControl(s: string, multiline: boolean): boolean {
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c === 0x7f || (c < 0x20 && !(multiline && (c === 0x09 || c === 0x0a || c === 0x0d)))) return true;
  }
  return false;
}

export interface TextOptions {
  max: number;
  min?: number;
  pattern?: RegExp;
  /** Allow TAB, LF and CR (addresses and instruction). */
  multiline?: boolean;
}

/** The control characters `hasControl` refuses, as a JSON Schema pattern (the same ranges). */
const NO_CONTROL = {
  single: '^[^\\u0000-\\u001f\\u007f]*$',
  multiline: '^[^\\u0000-\\u0008\\u000b\\u000c\\u000e-\\u001f\\u007f]*$',
};

/** A JSON string, stored exactly as sent (no trimming). */
export const text = ({ max, min = 0, pattern, multiline = false }: TextOptions): Checker<string> =>
  describedBy(
    (raw) => {
      if (typeof raw !== 'string' || !raw.isWellFormed() || hasControl(raw, multiline)) return undefined;
      // A code point is at most two UTF-16 units: skip counting a string that is far too long.
      if (raw.length > 2 * max) return undefined;
      const n = codePointLength(raw);
      if (n < min || n > max) return undefined;
      return pattern && !pattern.test(raw) ? undefined : raw;
    },
    {
      type: 'string',
      ...(min > 0 ? { minLength: min } : {}),
      ...(Number.isFinite(max) ? { maxLength: max } : {}),
      // A pattern of letters and digits leaves no control character; free text names the ones it refuses.
      pattern: pattern ? pattern.source : multiline ? NO_CONTROL.multiline : NO_CONTROL.single,
    },
  );

export const oneOf = <T extends string>(...values: T[]): Checker<T> =>
  describedBy((raw) => values.find((v) => v === raw), { type: 'string', enum: values });

const NUMERIC = /^-?\d+(\.\d+)?$/;

/** A finite JSON number, or a numeric string accepted as its number; -0 becomes 0. */
function toNumber(raw: unknown): number | undefined {
  const n = typeof raw === 'number' ? raw : typeof raw === 'string' && NUMERIC.test(raw) ? Number(raw) : NaN;
  if (!Number.isFinite(n)) return undefined;
  return n === 0 ? 0 : n;
}

/** A number in [min, max], both inclusive. */
export const amount = (min: number, max = Number.POSITIVE_INFINITY): Checker<number> =>
  describedBy(
    (raw) => {
      const n = toNumber(raw);
      return n !== undefined && n >= min && n <= max ? n : undefined;
    },
    // `minimum`/`maximum` apply to numbers and `pattern` to strings (JSON Schema): a numeric string counts as its number.
    {
      type: ['number', 'string'],
      minimum: min,
      ...(Number.isFinite(max) ? { maximum: max } : {}),
      pattern: NUMERIC.source,
    },
  );

export const countryCode = text({ max: 2, pattern: /^[A-Z]{2}$/ });
export const currencyCode = text({ max: 3, pattern: /^[A-Z]{3}$/ });
export const phone = text({ max: 24, pattern: /^[0-9]+$/ });
/** Light check: one `@`, non-empty local part and domain, no white space. */
export const email = text({ max: 320, pattern: /^[^\s@]+@[^\s@]+$/ });

const DECIMAL = /^\d+(\.\d+)?$/;

/**
 * `L,W,H`: max 30 characters, three non-negative decimals, white space around each allowed.
 * Stored as the three numbers' text (trimmed) ordered largest first, joined by `,`.
 */
const sizeText = text({ max: 30 });

export const clientSize: Checker<string> = describedBy(
  (raw) => {
    const s = sizeText(raw);
    if (s === undefined) return undefined;
    const parts = s.split(',').map((p) => p.trim());
    if (parts.length !== 3 || !parts.every((p) => DECIMAL.test(p))) return undefined;
    return parts
      .map((p) => ({ p, n: Number(p) }))
      .sort((a, b) => b.n - a.n)
      .map(({ p }) => p)
      .join(',');
  },
  { type: 'string', maxLength: 30, pattern: '^\\s*\\d+(\\.\\d+)?\\s*,\\s*\\d+(\\.\\d+)?\\s*,\\s*\\d+(\\.\\d+)?\\s*$' },
);

/** Digits-only length of a postal code by destination; every other country: 3-10. */
const POSTAL_LENGTHS = new Map<string, [number, number]>([
  ['SG', [5, 6]],
  ['MY', [4, 5]],
  ['KR', [4, 5]],
  ['JP', [5, 7]],
]);

const anyText = text({ max: Number.POSITIVE_INFINITY });

/** Strips every non-digit, then checks the length for the destination; stores the digits. */
export const postalCode = (country: string): Checker<string> =>
  describedBy((raw) => {
    const s = anyText(raw);
    if (s === undefined) return undefined;
    const digits = s.replace(/[^0-9]/g, '');
    const [min, max] = POSTAL_LENGTHS.get(country) ?? [3, 10];
    return digits.length >= min && digits.length <= max ? digits : undefined;
  }, anyText.schema);

/** The digit counts of `postalCode` in words, for the reference. */
export const postalLengthsText = (): string =>
  [...POSTAL_LENGTHS]
    .map(([c, [min, max]]) => `${c} ${min}-${max}`)
    .concat('every other destination 3-10')
    .join(', ');
