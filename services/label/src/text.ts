import type { TextMeasure } from './types.ts';

const ELLIPSIS = '\u2026';

/** Longest input looked at: anything past it cannot fit on a label anyway. */
const MAX_INPUT = 2000;

// C0/C1 controls, DEL, bidi embeddings/overrides/isolates, BOM, lone surrogates, noncharacters.
const UNSAFE = /[\p{Cc}\u202A-\u202E\u2066-\u2069\uFEFF\uFFFE\uFFFF]|\p{Cs}/gu;
const SPACES = /[\s\u2028\u2029]+/gu;

/** Display form of a user-supplied value: one line, no control characters, NFC. */
export function clean(value: unknown): string {
  if (value === undefined || value === null) return '';
  let s = typeof value === 'string' ? value : String(value);
  if (s.length > MAX_INPUT) s = s.slice(0, MAX_INPUT);
  // Line breaks and tabs become spaces before the remaining controls are dropped.
  return s.replace(SPACES, ' ').replace(UNSAFE, '').normalize('NFC').trim();
}

const WIDE =
  /[\u1100-\u115F\u2E80-\uA4CF\uAC00-\uD7A3\uF900-\uFAFF\uFE30-\uFE4F\uFF00-\uFF60\uFFE0-\uFFE6\u{20000}-\u{3FFFD}]/u;
const ZERO = /[\p{Mn}\p{Me}\u200B-\u200D]/u;
const NARROW = /[ .,:;'!|il1\-()[\]]/;
const BROAD = /[MWmw@%]/;

/**
 * Measure used when no font metrics are at hand: generous per-character widths, so text cut
 * with it fits in DejaVu Sans (the label font) and in narrower fonts.
 */
export const approximateMeasure: TextMeasure = (text, sizePt, bold) => {
  let em = 0;
  for (const ch of text) {
    if (ZERO.test(ch)) continue;
    if (WIDE.test(ch)) em += 1;
    else if (BROAD.test(ch)) em += 1;
    else if (NARROW.test(ch)) em += 0.4;
    else em += 0.72;
  }
  return em * sizePt * (bold ? 1.08 : 1);
};

/** Break opportunities: after spaces, and around every wide (CJK) character. */
function tokens(text: string): string[] {
  const out: string[] = [];
  let cur = '';
  for (const ch of text) {
    if (WIDE.test(ch)) {
      if (cur) out.push(cur);
      out.push(ch);
      cur = '';
    } else {
      cur += ch;
      if (ch === ' ') {
        out.push(cur);
        cur = '';
      }
    }
  }
  if (cur) out.push(cur);
  return out;
}

/** Longest prefix of `text` (whole code points) that, followed by `suffix`, fits in `width`. */
function prefixThatFits(
  text: string,
  suffix: string,
  width: number,
  size: number,
  bold: boolean,
  measure: TextMeasure,
): string {
  const cps = Array.from(text);
  let lo = 0;
  let hi = cps.length;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (measure(cps.slice(0, mid).join('') + suffix, size, bold) <= width) lo = mid;
    else hi = mid - 1;
  }
  // Never leave a combining mark without its base, nor a dangling space before the ellipsis.
  let cut = lo;
  while (cut > 0 && cut < cps.length && ZERO.test(cps[cut] ?? '')) cut--;
  return cps.slice(0, cut).join('').trimEnd();
}

/**
 * Wraps `text` into at most `maxLines` lines no wider than `width` points; what does not fit
 * is cut and the last line ends with an ellipsis. Greedy, breaking after spaces and around CJK
 * characters, and inside words that are wider than a line.
 */
export function fitLines(
  text: string,
  width: number,
  maxLines: number,
  sizePt: number,
  bold: boolean,
  measure: TextMeasure,
): string[] {
  if (!text) return [];
  const lines: string[] = [];
  let line = '';
  const toks = tokens(text);
  let i = 0;
  while (i < toks.length) {
    const tok = toks[i] ?? '';
    const candidate = line + tok;
    if (measure(candidate.trimEnd(), sizePt, bold) <= width) {
      line = candidate;
      i++;
      continue;
    }
    if (line.trim()) {
      lines.push(line.trimEnd());
      line = '';
      if (lines.length === maxLines) break;
      continue;
    }
    // A single token wider than the line: split it.
    const head = prefixThatFits(tok, '', width, sizePt, bold, measure) || Array.from(tok)[0] || '';
    lines.push(head);
    toks[i] = tok.slice(head.length);
    line = '';
    if (lines.length === maxLines) break;
    if (!toks[i]) i++;
  }
  const rest = toks.slice(i).join('').trim() !== '' || line.trim() !== '';
  if (lines.length < maxLines) {
    if (line.trim()) lines.push(line.trimEnd());
    return lines.map((l) => l.trimStart());
  }
  if (rest) {
    const last = lines[maxLines - 1] ?? '';
    lines[maxLines - 1] =
      prefixThatFits(last + ' ' + toks.slice(i).join(''), ELLIPSIS, width, sizePt, bold, measure) + ELLIPSIS;
  }
  return lines.map((l) => l.trimStart());
}

/** Fixed-point number without trailing zeros: 1.50 -> "1.5", 2 -> "2". */
export function num(n: number | undefined, decimals = 2): string {
  if (n === undefined || !Number.isFinite(n)) return '';
  return String(Number(n.toFixed(decimals)));
}

export function money(n: number | undefined, currency: string | undefined): string {
  if (n === undefined || !Number.isFinite(n)) return '';
  return `${clean(currency)} ${n.toFixed(2)}`.trim();
}
