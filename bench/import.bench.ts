/**
 * CSV import benchmark (docs/bulk.md): orders created per second by one import of
 * BENCH_IMPORT_ROWS rows (10,000 by default), from the POST until get-import says finished,
 * against create-order's rate when the same client sends one order at a time (the next once the
 * last is answered), in the same run on the same `npm start`. The server's own CPU time per order
 * (from /proc) is given for both, steadier than wall time on a shared machine. The two alternate
 * for BENCH_ROUNDS rounds (3 by default); the table gives each round and the medians.
 *
 * Run: `node bench/import.bench.ts` (BENCH_SINGLE_ORDERS, default 1,000: the one-at-a-time sample).
 * Writes bench/results/import.json. The bar: the import creates at least half as many orders a
 * second as create-order one at a time.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { stringify } from 'csv-stringify/sync';
import { orderJson, signed } from './orders.ts';
import { processCpuMs } from './processCpu.ts';
import { printColumns, round, startNpmStart, stopProcess, waitForHttp, writeResults } from './support.ts';

const ROWS = Number(process.env.BENCH_IMPORT_ROWS ?? 10_000);
const SINGLE = Number(process.env.BENCH_SINGLE_ORDERS ?? 1000);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const PORT = '18280';
const URL = `http://127.0.0.1:${PORT}`;

interface Measure {
  orders: number;
  seconds: number;
  perSecond: number;
  serverCpuMsPerOrder: number;
}

/** A CSV file of `rows` orders, each as create-order's body would be (one item row). */
function csvFile(rows: number, prefix: string): string {
  const records = Array.from({ length: rows }, () => {
    const { item, ...order } = JSON.parse(orderJson(prefix)) as Record<string, unknown> & {
      item: Record<string, unknown>[];
    };
    return { ...order, ...Object.fromEntries(Object.entries(item[0]!).map(([k, v]) => [`item[0].${k}`, v])) };
  });
  return stringify(records, { header: true });
}

async function measured(pid: number, orders: number, run: () => Promise<void>): Promise<Measure> {
  const cpu0 = processCpuMs(pid);
  const t0 = performance.now();
  await run();
  const seconds = (performance.now() - t0) / 1000;
  const cpu = processCpuMs(pid) - cpu0;
  return {
    orders,
    seconds: round(seconds, 2),
    perSecond: round(orders / seconds, 1),
    serverCpuMsPerOrder: round(cpu / orders, 3),
  };
}

async function oneAtATime(pid: number, round_: number): Promise<Measure> {
  return measured(pid, SINGLE, async () => {
    for (let i = 0; i < SINGLE; i++) {
      const r = await fetch(`${URL}/v1/openapi/order/create-order`, {
        method: 'POST',
        headers: signed(),
        body: orderJson(`ONE${round_}`),
      });
      const body = (await r.json()) as { code: number };
      if (body.code !== 0) throw new Error(`create-order: ${JSON.stringify(body)}`);
    }
  });
}

async function imported(pid: number, round_: number): Promise<Measure> {
  const file = csvFile(ROWS, `IMP${round_}`);
  return measured(pid, ROWS, async () => {
    const r = await fetch(`${URL}/v1/openapi/order/import-orders`, {
      method: 'POST',
      headers: { ...signed(), 'content-type': 'text/csv' },
      body: file,
    });
    const started = (await r.json()) as { code: number; data: { import_id: string; accepted: number } };
    if (started.code !== 0 || started.data.accepted !== ROWS) throw new Error(`import: ${JSON.stringify(started)}`);
    for (;;) {
      const q = new URLSearchParams({ import_id: started.data.import_id });
      const read = await fetch(`${URL}/v1/openapi/order/get-import?${q}`, { headers: signed() });
      const state = (await read.json()) as { data: { state: string; created: number } };
      if (state.data.state === 'finished') {
        if (state.data.created !== ROWS) throw new Error(`import created ${state.data.created} of ${ROWS}`);
        return;
      }
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  });
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

async function main(): Promise<void> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'parcel-bench-import-'));
  const server = startNpmStart(dataDir, { PORT, PARCEL_SANDBOX_PORT: '18289' });
  try {
    await waitForHttp(`${URL}/readyz`, 120_000);
    const pid = server.pid!;
    // Warm up both paths once.
    await fetch(`${URL}/v1/openapi/order/create-order`, { method: 'POST', headers: signed(), body: orderJson('WARM') });
    const rounds: { round: number; single: Measure; import: Measure; ratio: number }[] = [];
    for (let i = 0; i < ROUNDS; i++) {
      // Alternate which goes first, so neither always runs on the larger store.
      const [single, imp] =
        i % 2 === 0
          ? [await oneAtATime(pid, i), await imported(pid, i)]
          : await imported(pid, i).then(async (m) => [await oneAtATime(pid, i), m] as const);
      rounds.push({ round: i + 1, single, import: imp, ratio: round(imp.perSecond / single.perSecond, 2) });
    }
    const medians = {
      singlePerSecond: median(rounds.map((r) => r.single.perSecond)),
      importPerSecond: median(rounds.map((r) => r.import.perSecond)),
      ratio: median(rounds.map((r) => r.ratio)),
      singleCpuMsPerOrder: median(rounds.map((r) => r.single.serverCpuMsPerOrder)),
      importCpuMsPerOrder: median(rounds.map((r) => r.import.serverCpuMsPerOrder)),
    };
    printColumns(
      [
        'round',
        'one at a time (orders/s)',
        `import of ${ROWS} (orders/s)`,
        'import / one',
        'server CPU ms/order (one | import)',
      ],
      [
        ...rounds.map((r) => [
          String(r.round),
          String(r.single.perSecond),
          String(r.import.perSecond),
          `${Math.round(r.ratio * 100)} %`,
          `${r.single.serverCpuMsPerOrder} | ${r.import.serverCpuMsPerOrder}`,
        ]),
        [
          'median',
          String(medians.singlePerSecond),
          String(medians.importPerSecond),
          `${Math.round(medians.ratio * 100)} % (bar 50 %)`,
          `${medians.singleCpuMsPerOrder} | ${medians.importCpuMsPerOrder}`,
        ],
      ],
    );
    writeResults('import', { rows: ROWS, singleOrders: SINGLE, rounds, medians, bar: 0.5 });
  } finally {
    await stopProcess(server);
    rmSync(dataDir, { recursive: true, force: true });
  }
}

await main();
