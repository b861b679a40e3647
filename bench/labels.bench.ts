/**
 * Label rendering benchmark: renders per second, CPU per render and p50/p99 latency per format
 * (CN 23 PDF, 100 x 150 mm PDF, HTML, ZPL), in-process through createLabelRenderer and over HTTP
 * (A2, B7, B8, B9) against the embedded stack, with the project's targets for labels.
 *
 * In-process, one render at a time on this thread (the renderer's own methods), for a fresh
 * parcel each render (new tracking number, name, address: no cache helps) and for the same parcel
 * again (barcode and shaping caches warm, as when a label is fetched in several formats or
 * reprinted). CPU per render is this process's CPU time over the row divided by its renders,
 * steadier than wall time on a shared machine.
 * Over HTTP, the embedded stack (startEmbedded on a temporary directory, PARCEL_RATE_LIMIT_RPS=0,
 * PARCEL_SANDBOX_PORT=0) runs in a child process of its own, so that autocannon does not share its
 * thread; one order is created and its labels are fetched again and again (the same parcel:
 * barcode caches are warm), signed as bench/foundation.bench.ts does; CPU is the server's.
 *
 * Run: `node bench/labels.bench.ts` (BENCH_DURATION_S seconds per row, default 5;
 * BENCH_CONNECTIONS, default 8). Writes bench/results/labels.json.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import path from 'node:path';
import type { StoredParcelView } from '../packages/contracts/src/index.ts';
import { loadReferenceData } from '../packages/reference-data/src/index.ts';
import { item, jpNonLatin, view } from './parcelViews.ts';
import { signed } from './orders.ts';
import { createLabelRenderer } from '../services/label/src/index.ts';
import type { LabelRenderer } from '../services/label/src/index.ts';
import { processCpuMs } from './processCpu.ts';
import { load, percentile, startEmbeddedChild, writeResults } from './support.ts';

const duration = Number(process.env.BENCH_DURATION_S ?? 5);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 8);

type Format = 'CN23 PDF' | '100x150 PDF' | 'HTML' | 'ZPL';
/** Renders per second, the targets (the 100 x 150 mm PDF's "on one core"). */
const TARGETS: Record<Format, number> = { 'CN23 PDF': 80, '100x150 PDF': 150, HTML: 2000, ZPL: 10_000 };

interface Result {
  where: 'in-process' | 'HTTP';
  format: string;
  parcel: string;
  renders: number;
  perSecond: number;
  /** Renders per CPU-second of the rendering process (in-process: this one; HTTP: the server). */
  perCpuSecond: number;
  /** CPU milliseconds of the rendering process per render. */
  cpuMsPerRender: number;
  p50Ms: number;
  p99Ms: number;
  target?: number;
  errors?: number;
}

// --- parcels ------------------------------------------------------------------------------

const FIRST = [
  'Tan',
  'Lim',
  'Nur',
  'Jordan',
  'Olivia',
  'Rajesh',
  'Siti',
  'Marco',
  'Chen',
  'Priya',
  'Ahmad',
  'Sophie',
  'Kenji',
  'Lucas',
  'Mei',
  'Aarav',
  'Chloe',
];
const LAST = [
  'Wei Ming',
  'Hui Min',
  'Aisyah',
  'Smith',
  'Brown',
  'Kumar',
  'Rahman',
  'Rossi',
  'Jun Jie',
  'Nair',
  'Hassan',
  'Dubois',
  'Sato',
  'Silva',
  'Ling',
  'Patel',
  'Wong',
];
const STREETS = [
  'Orchard Road',
  'Bukit Timah Road',
  'Jalan Besar',
  'Serangoon Avenue 3',
  'Tampines Street 81',
  'Ang Mo Kio Avenue 10',
  'Jurong West Street 42',
];
const CHECK = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';
let seq = 0;

/** A parcel no render has seen: its own tracking number, name, address, weight and reference. */
function freshParcel(): StoredParcelView {
  const i = ++seq;
  const tn = `PB${(i * 7919).toString(36).toUpperCase().padStart(10, '0')}${CHECK[i % CHECK.length]}${CHECK[(i * 7) % CHECK.length]}`;
  return view(tn, {
    recipient_name: `${FIRST[i % FIRST.length]} ${LAST[(i * 7) % LAST.length]}`,
    recipient_address: `${(i % 400) + 1} ${STREETS[i % STREETS.length]} #${(i % 30) + 1}-${(i % 90) + 10}`,
    postal_code: String(100000 + ((i * 7919) % 800000)).padStart(6, '0'),
    client_weight: Math.round((0.1 + (i % 97) / 10) * 100) / 100,
    custom_tracking_num: `ORD-${i}`,
    ...(i % 3 === 0 ? { cash: 10 + (i % 50), cash_currency: 'SGD' } : {}),
  });
}

// --- in-process ---------------------------------------------------------------------------

const round = (n: number, digits = 2): number => Number(n.toFixed(digits));

/** Renders one label after another for `duration` seconds, after a second of warm-up. */
async function measure(
  format: string,
  parcel: string,
  next: () => StoredParcelView,
  render: (v: StoredParcelView) => unknown,
  target?: number,
): Promise<Result> {
  const loop = async (until: number, times?: number[]): Promise<void> => {
    while (performance.now() < until) {
      const v = next();
      const t = performance.now();
      await render(v);
      times?.push(performance.now() - t);
    }
  };
  await loop(performance.now() + 1000);
  const times: number[] = [];
  const cpu0 = process.cpuUsage();
  const start = performance.now();
  await loop(start + duration * 1000, times);
  const elapsed = (performance.now() - start) / 1000;
  const cpu = process.cpuUsage(cpu0);
  const cpuS = (cpu.user + cpu.system) / 1e6;
  times.sort((a, b) => a - b);
  return {
    where: 'in-process',
    format,
    parcel,
    renders: times.length,
    perSecond: Math.round(times.length / elapsed),
    perCpuSecond: Math.round(times.length / cpuS),
    cpuMsPerRender: round((cpuS * 1000) / times.length, 3),
    p50Ms: round(percentile(times, 50), 3),
    p99Ms: round(percentile(times, 99), 3),
    ...(target !== undefined ? { target } : {}),
  };
}

const FRESH = 'fresh each render';

/** On this thread, one render at a time: the renderer's own methods. */
async function onThisThread(renderer: LabelRenderer): Promise<Result[]> {
  const formats: [Format, (v: StoredParcelView) => unknown][] = [
    ['CN23 PDF', (v) => renderer.cn23Pdf(v, 'horizontal')],
    ['100x150 PDF', (v) => renderer.shippingLabelPdf(v)],
    ['HTML', (v) => renderer.shippingLabelHtml(v)],
    ['ZPL', (v) => renderer.shippingLabelZpl(v)],
  ];
  const rows: Result[] = [];
  for (const [format, render] of formats) {
    rows.push(await measure(format, FRESH, freshParcel, render, TARGETS[format]));
    const same = freshParcel();
    rows.push(await measure(format, 'same parcel', () => same, render));
  }
  // For information: Chinese, Thai and Korean names (Noto Sans CJK is a CFF font; no target).
  rows.push(
    await measure(
      '100x150 PDF',
      'CJK + Thai names',
      () => jpNonLatin,
      (v) => renderer.shippingLabelPdf(v),
    ),
  );
  rows.push(
    await measure(
      'CN23 PDF',
      'CJK + Thai names',
      () => jpNonLatin,
      (v) => renderer.cn23Pdf(v, 'horizontal'),
    ),
  );
  return rows;
}

// --- HTTP ---------------------------------------------------------------------------------

async function overHttp(): Promise<Result[]> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'parcel-labels-bench-'));
  const { child, url } = await startEmbeddedChild(dataDir);
  try {
    const order = {
      custom_tracking_num: `LB-${process.pid}`,
      recipient_name: 'Tan Wei Ming',
      recipient_country: 'SG',
      recipient_phone: '6591234567',
      recipient_address: '10 Bayfront Avenue #12-03',
      postal_code: '018956',
      sender_country: 'SG',
      client_size: '30,20,10',
      client_weight: 1.25,
      declared_value: 25,
      declared_value_currency: 'SGD',
      service_type: 'LMD',
      cash: 25.5,
      cash_currency: 'SGD',
      item: [item()],
    };
    const created = (await (
      await fetch(`${url}/v1/openapi/order/create-order`, {
        method: 'POST',
        headers: signed(),
        body: JSON.stringify(order),
      })
    ).json()) as { data: { wmg_tracking_num: string } };
    const tn = created.data.wmg_tracking_num;
    const tokenReply = (await (
      await fetch(`${url}/api/auth/token`, {
        method: 'POST',
        body: JSON.stringify({ ApiName: 'demo', ApiKey: 'demo-secret' }),
      })
    ).json()) as { Data: { AccessToken: string } };
    const bearer = { 'content-type': 'application/json', authorization: `Bearer ${tokenReply.Data.AccessToken}` };
    const a2Body = JSON.stringify({ Barcode: tn, LabelType: 'CN23', Origin: 'SG', Destination: 'SG' });

    const endpoints: [Format, string, () => Promise<unknown>, Parameters<typeof load>[1]][] = [
      [
        'CN23 PDF',
        'A2 create-label',
        () => fetch(`${url}/api/create-label`, { method: 'POST', headers: bearer, body: a2Body }),
        { url: `${url}/api/create-label`, method: 'POST', headers: bearer, body: a2Body },
      ],
      ...(
        [
          ['100x150 PDF', 'get-shipping-label'],
          ['HTML', 'get-shipping-label-html'],
          ['ZPL', 'get-shipping-label-zpl'],
        ] as [Format, string][]
      ).map(([format, p]): [Format, string, () => Promise<unknown>, Parameters<typeof load>[1]] => {
        const pathAndQuery = `/v1/openapi/order-shipping-label/${p}?tracking_num=${tn}`;
        return [
          format,
          `B ${p}`,
          () => fetch(`${url}${pathAndQuery}`, { headers: signed() }),
          {
            url,
            requests: [{ method: 'GET', path: pathAndQuery, setupRequest: (req) => ({ ...req, headers: signed() }) }],
          },
        ];
      }),
    ];
    const rows: Result[] = [];
    for (const [format, name, once, options] of endpoints) {
      const reply = (await (await (once() as Promise<Response>)).json()) as { code?: number; Code?: number };
      if ((reply.code ?? reply.Code) !== 0) throw new Error(`${name}: ${JSON.stringify(reply)}`);
      const cpu0 = processCpuMs(child.pid!) / 1000;
      const r = await load(name, { ...options, connections, duration });
      const cpu = processCpuMs(child.pid!) / 1000 - cpu0;
      rows.push({
        where: 'HTTP',
        format: `${format} (${name})`,
        parcel: 'one order, again',
        renders: r.requests,
        perSecond: r.rps,
        perCpuSecond: cpu > 0 ? Math.round(r.requests / cpu) : 0,
        cpuMsPerRender: r.requests > 0 ? round((cpu * 1000) / r.requests, 3) : 0,
        p50Ms: r.p50,
        p99Ms: r.p99,
        errors: r.errors + r.non2xx,
      });
    }
    return rows;
  } finally {
    const exited = new Promise((r) => child.once('exit', r));
    child.kill('SIGTERM');
    await Promise.race([exited, new Promise((r) => setTimeout(r, 5000))]);
    if (child.exitCode === null) child.kill('SIGKILL');
    rmSync(dataDir, { recursive: true, force: true });
  }
}

// --- report -------------------------------------------------------------------------------

function printTable(rows: Result[]): void {
  const header = [
    'where',
    'format',
    'parcel',
    'renders',
    'per s',
    'per CPU s',
    'CPU ms',
    'p50 ms',
    'p99 ms',
    'target/s',
    'met',
  ];
  const lines = rows.map((r) => [
    r.where,
    r.format,
    r.parcel,
    String(r.renders),
    String(r.perSecond),
    String(r.perCpuSecond),
    String(r.cpuMsPerRender),
    String(r.p50Ms),
    String(r.p99Ms),
    r.target !== undefined ? String(r.target) : '',
    r.target !== undefined ? (r.perSecond >= r.target ? 'yes' : 'NO') : '',
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...lines.map((l) => l[i]!.length)));
  const fmt = (cells: string[]): string =>
    cells.map((c, i) => (i < 3 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join('  ');
  console.log(fmt(header));
  for (const l of lines) console.log(fmt(l));
}

async function main(): Promise<void> {
  const t0 = performance.now();
  const ref = loadReferenceData();
  const renderer = await createLabelRenderer({ ref });
  const startMs = Math.round(performance.now() - t0);
  console.log(
    `renderer ready in ${startMs} ms (fonts parsed, template compiled, every format rendered once); ${duration} s per row; ${availableParallelism()} cores`,
  );
  const rows = await onThisThread(renderer);
  rows.push(...(await overHttp()));
  printTable(rows);
  // A target is met when the fresh-parcel row of its format reaches it.
  for (const r of rows) {
    if (r.target === undefined) continue;
    const format = r.format as Format;
    console.log(
      `${format}: fresh parcels ${r.perSecond}/s, ${r.cpuMsPerRender} ms CPU each (target ${TARGETS[format]}/s: ${r.perSecond >= TARGETS[format] ? 'met' : 'MISSED'})`,
    );
  }
  writeResults('labels', {
    cores: availableParallelism(),
    durationS: duration,
    connections,
    rendererStartMs: startMs,
    targets: TARGETS,
    rows,
  });
}

await main();
