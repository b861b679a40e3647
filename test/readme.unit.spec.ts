/** The rules test/readme.int.spec.ts reads README.md by: its blocks, the answers in them, and "the same answer". */
import { fencedBlocks, formatJson, jsonDocuments, normalize } from './support/readme.ts';

describe('fencedBlocks: every ``` block in order, with its language and line', () => {
  test('blocks with and without a language', () => {
    const md = 'text\n```sh\necho 1\n```\n\n```\nplain\n```\n```json\n{"a": 1}\n```\n';
    expect(fencedBlocks(md)).toEqual([
      { lang: 'sh', text: 'echo 1\n', line: 2 },
      { lang: '', text: 'plain\n', line: 6 },
      { lang: 'json', text: '{"a": 1}\n', line: 9 },
    ]);
  });

  test('a block never closed is an error', () => {
    expect(() => fencedBlocks('```sh\necho 1\n')).toThrow('never closed');
  });
});

describe('jsonDocuments: the answers a block prints, one after another', () => {
  test('several documents, compact or formatted, braces inside strings', () => {
    expect(jsonDocuments('{"a": "}{"}\n{\n  "b": [1, {"c": "\\"]"}]\n}\n\n[]\n')).toEqual([
      { a: '}{' },
      { b: [1, { c: '"]' }] },
      [],
    ]);
  });

  test('anything but JSON documents is an error', () => {
    expect(() => jsonDocuments('{"a": 1}\nx-auth-name: REQUIRED\n')).toThrow('not a JSON object or array');
    expect(() => jsonDocuments('{"a": 1,}')).toThrow('not JSON');
  });

  test('nothing printed: no documents', () => {
    expect(jsonDocuments(' \n')).toEqual([]);
  });
});

describe('normalize: answers are the same when equal but for their per-run values', () => {
  const answer = (over: Record<string, unknown> = {}) => ({
    code: 0,
    message: 'success',
    data: {
      custom_tracking_num: 'ORDER-1795476767-8972',
      wmg_tracking_num: 'PXAK9YQB3D8N8JG9FD',
      date_time: '2026-11-24T07:32:47+08:00',
      partner_tracking_no: 'LMXEJG8KUZN3STQ',
      zpl: '^FDPXAK9YQB3D8N8JG9FD^FS^FD2026-11-24^FS^FDREF ORDER-1795476767-8972^FS',
      AccessToken: 'seLYuk4oywAT_BgTmmlU9EzpWQkL4hVKWztNQxiKTqk',
      seed: '1795476767000',
      Distance: 2720.8,
      error: [],
      ...over,
    },
  });

  test('tracking numbers, partner numbers, references, times, dates, seeds and tokens differ freely, inside longer strings too', () => {
    const other = answer({
      custom_tracking_num: 'ORDER-1795476768-22198',
      wmg_tracking_num: 'PX5VXE68JDPM9JM0KQ',
      date_time: '2026-11-25T00:00:01+08:00',
      partner_tracking_no: 'LMX124K0O95Q68Q',
      zpl: '^FDPX5VXE68JDPM9JM0KQ^FS^FD2026-11-25^FS^FDREF ORDER-1795476768-22198^FS',
      AccessToken: 'NzDMwzQW7sWutPf0NFwCHog9HXYWbylsuWpAgS_6Gnc',
      seed: '1795476768000',
    });
    expect(normalize(other)).toEqual(normalize(answer()));
  });

  test('webhook endpoint ids and log positions differ freely; other numbers do not', () => {
    const message = (endpoint: string, position: number, attempts = 1) => ({
      data: { endpoint_id: endpoint, messages: [{ position, attempts }] },
    });
    expect(normalize(message('we_9eb8c22082facb25c00c316e', 5))).toEqual(
      normalize(message('we_61b47009716f95c5965d67d2', 12)),
    );
    expect(normalize(message('we_9eb8c22082facb25c00c316e', 5, 2))).not.toEqual(
      normalize(message('we_9eb8c22082facb25c00c316e', 5)),
    );
    expect(normalize({ position: 'top' })).toEqual({ position: 'top' });
  });

  test.each([
    ['a code', { code: 1 }],
    ['a message', { message: 'x-auth-name: REQUIRED' }],
  ])('%s differs', (_, over) => {
    expect(normalize({ ...answer(), ...over })).not.toEqual(normalize(answer()));
  });

  test.each([
    ['a number', { Distance: 2720.9 }],
    ['a key', { wmg_tracking_number: 'PXAK9YQB3D8N8JG9FD' }],
    ['an array element', { error: [{ reason: 'x' }] }],
    ['the text around a per-run value', { zpl: '^FDPXAK9YQB3D8N8JG9FD^FS' }],
    ['a value of another kind', { wmg_tracking_num: '' }],
  ])('%s differs', (_, over) => {
    expect(normalize(answer(over))).not.toEqual(normalize(answer()));
  });
});

describe('formatJson: the README form of an answer', () => {
  test('one line when it fits, one member per line otherwise; the same value either way', () => {
    const value = { code: 0, message: 'success', data: { list: ['a'.repeat(60), 'b'.repeat(60)], empty: [] } };
    const text = formatJson(value);
    expect(text).toBe(`{
  "code": 0,
  "message": "success",
  "data": {
    "list": [
      "${'a'.repeat(60)}",
      "${'b'.repeat(60)}"
    ],
    "empty": []
  }
}`);
    expect(JSON.parse(text)).toEqual(value);
    expect(formatJson({ code: 0, data: { barcode: 'PX' } })).toBe('{"code": 0, "data": {"barcode": "PX"}}');
  });
});
