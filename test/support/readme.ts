/**
 * README.md's code blocks as a test reads them, and those of the docs pages that show examples the
 * same way: the fenced blocks in order, the JSON documents a block prints or shows, and the rule
 * that says when a printed answer is "the same" as the one the page shows although tracking
 * numbers, references, times and tokens differ on every run.
 */

export interface FencedBlock {
  /** The info string after the opening fence (`sh`, `json`, ...), empty when there is none. */
  lang: string;
  /** The block's text, without the fences. */
  text: string;
  /** 1-based line of the opening fence in the file, for messages. */
  line: number;
}

/** Every ``` fenced block of a Markdown text, in order. */
export function fencedBlocks(markdown: string): FencedBlock[] {
  const blocks: FencedBlock[] = [];
  const lines = markdown.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const open = /^```(\S*)\s*$/.exec(lines[i]!);
    if (!open) continue;
    const start = i;
    const body: string[] = [];
    for (i++; i < lines.length && !/^```\s*$/.test(lines[i]!); i++) body.push(lines[i]!);
    if (i >= lines.length) throw new Error(`line ${start + 1}: the block opened here is never closed`);
    blocks.push({ lang: open[1]!, text: body.join('\n') + '\n', line: start + 1 });
  }
  return blocks;
}

/**
 * The JSON documents of a text, one after another, separated by white space only (a block may
 * print several answers, one per curl; the README shows them formatted, with blank lines between).
 * Anything else in the text is an error: a block must print its answers and nothing else.
 */
export function jsonDocuments(text: string): unknown[] {
  const documents: unknown[] = [];
  let i = 0;
  for (;;) {
    while (i < text.length && /\s/.test(text[i]!)) i++;
    if (i >= text.length) return documents;
    const start = i;
    if (text[i] !== '{' && text[i] !== '[')
      throw new Error(`not a JSON object or array at: ${JSON.stringify(text.slice(i, i + 80))}`);
    let depth = 0;
    let inString = false;
    for (; i < text.length; i++) {
      const c = text[i];
      if (inString) {
        if (c === '\\') i++;
        else if (c === '"') inString = false;
      } else if (c === '"') inString = true;
      else if (c === '{' || c === '[') depth++;
      else if (c === '}' || c === ']') {
        depth--;
        if (depth === 0) break;
      }
    }
    const slice = text.slice(start, ++i);
    try {
      documents.push(JSON.parse(slice));
    } catch (err) {
      throw new Error(`not JSON (${(err as Error).message}): ${slice.slice(0, 200)}`, { cause: err });
    }
  }
}

/**
 * What differs on every run, and stands in for it when answers are compared.
 * Whole strings first: a bearer token or Base64 data (32 or more characters of the Base64 or
 * Base64url alphabets, the PDF cut short with "..." included). Then parts of strings, so that
 * values inside a longer text (the ZPL label names the tracking number, the reference and the
 * date) are replaced too: tracking numbers (PX + 16 symbols, docs/decisions.md "Tracking numbers"), LMX
 * partner numbers (LMX + 12, services/carrier-sandbox), the README's references
 * (ORDER-<seconds>-<random>), webhook endpoint ids (we_ + 24 hex digits), times
 * (2026-11-22T14:05:09+08:00), dates, and 13-digit seeds. Last, numbers under a key whose value
 * is a place in the event store's log (a webhook message's `position`), which grows from run to run.
 */
const PER_RUN_STRING: [RegExp, string][] = [[/^[A-Za-z0-9+/_-]{32,}={0,2}(\.\.\.)?$/, '<token or Base64>']];
const PER_RUN_PART: [RegExp, string][] = [
  [/PX[0-9A-Z]{16}/g, '<tracking number>'],
  [/LMX[0-9A-Z]{12}/g, '<partner number>'],
  [/ORDER-\d+-\d+/g, '<reference>'],
  [/we_[0-9a-f]{24}/g, '<endpoint id>'],
  [/\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}[+-]\d{2}:\d{2}/g, '<time>'],
  [/\d{4}-\d{2}-\d{2}/g, '<date>'],
  [/(?<!\d)\d{13}(?!\d)/g, '<seed>'],
];
const PER_RUN_NUMBER: Record<string, string> = { position: '<log position>' };

/**
 * An answer with its per-run values replaced by their kind. Two answers are "the same" when their
 * normalized forms are deeply equal: the same keys at every level, arrays of the same length
 * compared element by element, and every number, boolean, null and string equal (codes and
 * messages included), except the per-run values above, which need only be of the same kind.
 */
export function normalize(value: unknown): unknown {
  if (typeof value === 'string') {
    for (const [pattern, kind] of PER_RUN_STRING) if (pattern.test(value)) return kind;
    return PER_RUN_PART.reduce((s, [pattern, kind]) => s.replace(pattern, kind), value);
  }
  if (Array.isArray(value)) return value.map(normalize);
  if (value && typeof value === 'object') {
    return Object.fromEntries(
      Object.entries(value).map(([k, v]) => [
        k,
        typeof v === 'number' && Object.hasOwn(PER_RUN_NUMBER, k) ? PER_RUN_NUMBER[k] : normalize(v),
      ]),
    );
  }
  return value;
}

/**
 * JSON formatted for the README: a value on one line when it fits in `width` columns with its
 * indentation, otherwise one member per line (prettier's rule).
 */
export function formatJson(value: unknown, width = 100): string {
  const format = (v: unknown, indent: string, column: number): string => {
    const oneLine = inline(v);
    if (v === null || typeof v !== 'object' || column + oneLine.length <= width) return oneLine;
    const inner = indent + '  ';
    const members = Array.isArray(v)
      ? v.map((item) => inner + format(item, inner, inner.length))
      : Object.entries(v).map(([k, item]) => {
          const key = `${JSON.stringify(k)}: `;
          return inner + key + format(item, inner, inner.length + key.length);
        });
    return Array.isArray(v) ? `[\n${members.join(',\n')}\n${indent}]` : `{\n${members.join(',\n')}\n${indent}}`;
  };
  return format(value, '', 0);
}

function inline(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(inline).join(', ')}]`;
  if (value && typeof value === 'object')
    return `{${Object.entries(value)
      .map(([k, v]) => `${JSON.stringify(k)}: ${inline(v)}`)
      .join(', ')}}`;
  return JSON.stringify(value);
}
