/**
 * GET /metrics of a process, read independently of prom-client: parse-prometheus-text-format
 * checks the syntax of every line and gives the families (name, HELP, TYPE); the samples are read
 * line by line here, because that parser merges the series of a labelled histogram into one. Every
 * scrape must pass: a Prometheus content type, one family per name, each with its TYPE, every
 * sample in a family, and histograms whose cumulative buckets add up to their count.
 */
import parsePrometheusTextFormat from 'parse-prometheus-text-format';
import type { PrometheusFamily } from 'parse-prometheus-text-format';

export interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

export interface Scrape {
  families: Map<string, PrometheusFamily>;
  /** Samples named `name` (a histogram's are `<name>_bucket`, `_sum`, `_count`) whose labels include `labels`. */
  samples(name: string, labels?: Record<string, string>): Sample[];
  /** A histogram's count, summed over its series that match `labels` (0 when there is none). */
  histogramCount(name: string, labels?: Record<string, string>): number;
  /** A histogram's sum, summed over its series that match `labels`. */
  histogramSum(name: string, labels?: Record<string, string>): number;
  /** The value of the single series of a gauge or counter that matches `labels` (undefined when absent). */
  value(name: string, labels?: Record<string, string>): number | undefined;
}

const SAMPLE = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})?\s+(\S+)(?:\s+-?\d+)?$/;

/** `a="x",b="y\"z"`: label values with the format's escapes (\\, \", \n). */
function parseLabels(text: string | undefined, line: string): Record<string, string> {
  const labels: Record<string, string> = {};
  if (!text) return labels;
  const pair = /\s*([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"\s*(,|$)/y;
  for (let at = 0; at < text.length;) {
    pair.lastIndex = at;
    const m = pair.exec(text);
    if (!m) throw new Error(`malformed labels: ${line}`);
    labels[m[1]!] = m[2]!.replace(/\\(.)/g, (_, c: string) => (c === 'n' ? '\n' : c));
    at = pair.lastIndex;
  }
  return labels;
}

const matches = (sample: Sample, labels: Record<string, string>) =>
  Object.entries(labels).every(([k, v]) => sample.labels[k] === v);

export function parseScrape(text: string): Scrape {
  const families = new Map<string, PrometheusFamily>();
  for (const family of parsePrometheusTextFormat(text)) {
    if (families.has(family.name)) throw new Error(`${family.name} appears twice`);
    if (family.type === 'UNTYPED') throw new Error(`${family.name} has no TYPE`);
    families.set(family.name, family);
  }
  const all: Sample[] = [];
  for (const line of text.split('\n')) {
    if (line === '' || line.startsWith('#')) continue;
    const m = SAMPLE.exec(line);
    if (!m) throw new Error(`malformed sample: ${line}`);
    const sample = { name: m[1]!, labels: parseLabels(m[2], line), value: Number(m[3]) };
    const family = families.get(sample.name) ?? families.get(sample.name.replace(/_(bucket|sum|count)$/, ''));
    if (!family) throw new Error(`a sample outside every family: ${line}`);
    all.push(sample);
  }
  const samples = (name: string, labels: Record<string, string> = {}) =>
    all.filter((s) => s.name === name && matches(s, labels));
  for (const family of families.values()) if (family.type === 'HISTOGRAM') checkHistogram(family.name, samples);
  const total = (name: string, labels?: Record<string, string>) =>
    samples(name, labels).reduce((n, s) => n + s.value, 0);
  return {
    families,
    samples,
    histogramCount: (name, labels) => total(`${name}_count`, labels),
    histogramSum: (name, labels) => total(`${name}_sum`, labels),
    value(name, labels) {
      const found = samples(name, labels);
      if (found.length > 1) throw new Error(`${name} ${JSON.stringify(labels)}: ${found.length} series`);
      return found[0]?.value;
    },
  };
}

/** Per series: cumulative buckets never decrease, and the +Inf bucket is the series' count. */
function checkHistogram(name: string, samples: (name: string, labels?: Record<string, string>) => Sample[]): void {
  for (const count of samples(`${name}_count`)) {
    const buckets = samples(`${name}_bucket`, count.labels)
      .filter((b) => Object.keys(b.labels).length === Object.keys(count.labels).length + 1)
      .map((b) => [b.labels.le === '+Inf' ? Infinity : Number(b.labels.le), b.value] as const)
      .sort((a, b) => a[0] - b[0]);
    const counts = buckets.map(([, n]) => n);
    if (counts.some((n, i) => i > 0 && n < counts[i - 1]!))
      throw new Error(`${name} ${JSON.stringify(count.labels)}: buckets decrease`);
    if (buckets.at(-1)?.[0] !== Infinity || counts.at(-1) !== count.value)
      throw new Error(`${name} ${JSON.stringify(count.labels)}: +Inf bucket is not the count`);
  }
}

export async function scrape(url: string): Promise<Scrape> {
  const res = await fetch(`${url}/metrics`);
  if (res.status !== 200) throw new Error(`GET ${url}/metrics answered ${res.status}`);
  const type = res.headers.get('content-type') ?? '';
  if (!/^text\/plain; version=0\.0\.4/.test(type)) throw new Error(`GET ${url}/metrics: content-type ${type}`);
  return parseScrape(await res.text());
}
