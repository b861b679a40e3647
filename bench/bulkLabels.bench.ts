/**
 * Many labels in one document against one label a call: the time for one get-shipping-labels of 100
 * parcels (a PDF of 4 x 6 in pages, a PDF of A4 sheets four up, ZPL) against 100 B7
 * get-shipping-label calls for the same parcels, one after another and 8 at a time, all through
 * the SDK's InterfaceBClient (retries off) against the embedded stack, in the same run.
 *
 * The stack (startEmbedded on a temporary directory, PARCEL_RATE_LIMIT_RPS=0) runs in a child
 * process of its own, so the client does not share its thread; its CPU time per row is read from
 * /proc. 100 orders are created first; each round then runs every row once, in turn, and the table
 * shows each row's median over the rounds. The bulk call also records LB_GN on the 100 parcels
 * (B7 records nothing), so it does more than the single calls it replaces.
 *
 * Run: `node bench/bulkLabels.bench.ts` (BENCH_ROUNDS rounds, default 5; BENCH_LABELS parcels,
 * default 100). Writes bench/results/bulkLabels.json.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import path from 'node:path';
import { InterfaceBClient } from '../packages/client/src/index.ts';
import { tokenAndParcels } from './orders.ts';
import { processCpuMs } from './processCpu.ts';
import { printColumns, round, startEmbeddedChild, stopProcess, writeResults } from './support.ts';

const rounds = Number(process.env.BENCH_ROUNDS ?? 5);
const count = Number(process.env.BENCH_LABELS ?? 100);

interface Sample {
  ms: number;
  serverCpuMs: number;
  bytes: number;
}

interface RowResult {
  row: string;
  calls: number;
  /** Medians over the rounds. */
  ms: number;
  serverCpuMs: number;
  bytes: number;
  msPerLabel: number;
  /** Every round's wall time, in the order run. */
  rounds: number[];
}

const median = (values: readonly number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
};

/** Runs `work` with `concurrency` calls at a time over the numbers. */
async function inPool<T>(
  items: readonly T[],
  concurrency: number,
  work: (item: T) => Promise<number>,
): Promise<number> {
  let next = 0;
  let bytes = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < items.length) {
        const answered = await work(items[next++]!);
        bytes += answered;
      }
    }),
  );
  return bytes;
}

async function main(): Promise<void> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'parcel-bulk-labels-bench-'));
  const { child, url } = await startEmbeddedChild(dataDir);
  try {
    const { numbers } = await tokenAndParcels(url, 'BL', count);
    const client = new InterfaceBClient({
      baseUrl: url,
      apiName: 'demo',
      apiKey: 'demo-secret',
      retry: { maxAttempts: 1 },
    });

    const bulk = (document: Parameters<InterfaceBClient['getShippingLabels']>[1]) => async (): Promise<number> => {
      const r = await client.getShippingLabels(numbers, document);
      if (!r.ok || r.data.labels.length !== numbers.length)
        throw new Error(`get-shipping-labels: ${JSON.stringify(r)}`);
      return (r.data.base64 ?? r.data.zpl ?? '').length;
    };
    const single = async (tn: string): Promise<number> => {
      const r = await client.getShippingLabel(tn);
      if (!r.ok) throw new Error(`get-shipping-label ${tn}: ${r.error.message}`);
      return r.data.base64.length;
    };
    const rows: { row: string; calls: number; run: () => Promise<number> }[] = [
      { row: `1 get-shipping-labels, PDF 4x6 pages`, calls: 1, run: bulk({ format: 'pdf', layout: 'label' }) },
      { row: `1 get-shipping-labels, PDF A4 4-up`, calls: 1, run: bulk({ format: 'pdf', layout: 'a4-4up' }) },
      { row: `1 get-shipping-labels, ZPL`, calls: 1, run: bulk({ format: 'zpl' }) },
      { row: `${count} B7 get-shipping-label, 1 at a time`, calls: count, run: () => inPool(numbers, 1, single) },
      { row: `${count} B7 get-shipping-label, 8 at a time`, calls: count, run: () => inPool(numbers, 8, single) },
    ];

    // One untimed pass: the renderer loads on the first label, and every path runs once.
    for (const r of rows) await r.run();
    const samples = new Map<string, Sample[]>(rows.map((r) => [r.row, []]));
    for (let i = 0; i < rounds; i++) {
      for (const r of rows) {
        const cpu0 = processCpuMs(child.pid!);
        const t0 = performance.now();
        const bytes = await r.run();
        const ms = performance.now() - t0;
        samples.get(r.row)!.push({ ms, serverCpuMs: processCpuMs(child.pid!) - cpu0, bytes });
      }
    }

    const results: RowResult[] = rows.map(({ row, calls }) => {
      const s = samples.get(row)!;
      const ms = median(s.map((x) => x.ms));
      return {
        row,
        calls,
        ms: round(ms, 1),
        serverCpuMs: round(median(s.map((x) => x.serverCpuMs)), 0),
        bytes: median(s.map((x) => x.bytes)),
        msPerLabel: round(ms / count, 2),
        rounds: s.map((x) => round(x.ms, 1)),
      };
    });
    console.log(`${count} labels, ${rounds} rounds (medians), ${availableParallelism()} cores`);
    printColumns(
      ['row', 'calls', 'ms', 'ms/label', 'server CPU ms', 'bytes'],
      results.map((r) => [
        r.row,
        String(r.calls),
        String(r.ms),
        String(r.msPerLabel),
        String(r.serverCpuMs),
        String(r.bytes),
      ]),
    );
    const one = results[0]!;
    const sequential = results[3]!;
    console.log(
      `one ${count}-label PDF: ${one.ms} ms against ${sequential.ms} ms for ${count} single labels one at a time (${round(sequential.ms / one.ms, 1)}x)`,
    );
    writeResults('bulkLabels', { cores: availableParallelism(), rounds, labels: count, rows: results });
  } finally {
    await stopProcess(child);
    rmSync(dataDir, { recursive: true, force: true });
  }
}

await main();
