/**
 * Foundation benchmark, against the embedded stack in its own process:
 * A1 lookups of 1, 100 and 1 000 numbers, create-order throughput and latency (interface B, a
 * fresh seed and reference per request), a bare node:http hello-world as the ceiling, the same
 * create-orders against the gateway alone (bench/gatewayAlone.ts: what the HTTP tier allows before
 * anything is stored), and the server's RSS after 100 000 orders. The LMX sandbox runs in a
 * process of its own, standing for the external carrier it is, so the RSS is the service's. A1
 * runs before the create-order burst: each order is registered with the carrier afterwards, and
 * that backlog shares the process.
 * Then, once that server has stopped, turns: create-order on a fresh server and data directory each
 * time (`scripts/start.sh`, the rate limiter on but never limiting so its headers are sent),
 * BENCH_ROUNDS rounds of this tree without and with an Idempotency-Key (a fresh key per request, as
 * a retry-safe client sends), of the CRUD baseline (bench/crudBaseline.ts: what a user would write
 * instead, express, zod and one SQLite transaction) with `synchronous` NORMAL and FULL, of the gateway
 * alone (its HTTP tier, nothing stored), and with
 * BENCH_BASELINE_REF=<commit> that commit's create-order too: the key's cost, what the event-sourced
 * stack costs against the plain alternative, and the cost of everything between the commit and
 * this tree, each as the ratio of medians of one run, and as the median of the ratios taken round
 * by round (two turns of one round ran one after the other), with their range. Each turn gives its
 * req/s and the server process's CPU per request (`server cpu ms/req`), the steadier of the two on
 * a shared machine.
 * The embedded stack answers before its subscriptions have done their part (carrier registration,
 * the view, webhooks): its turns wait until they have caught up, and give beside those figures the
 * requests done in all per second (over the load and that drain) and the CPU per request with it.
 * They also give, from the server's /metrics, its main event loop's busy time per request and the
 * share of the load's time it was busy: near 1, that one thread is the limit, whatever the CPU.
 * With BENCH_CPU_PROF=<dir> every turn's server runs under V8's CPU profiler, and each turn prints
 * where its main thread's time went over the load, by package and by function (turns.ts).
 * Run: `npm run bench` (BENCH_DURATION_S, BENCH_ORDERS, BENCH_BASELINE_REF, BENCH_ROUNDS, BENCH_WARMUP_S, BENCH_CPU_PROF).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { exportCommit } from './baseline.ts';
import { tokenAndParcels } from './orders.ts';
import { a1Lookups, createOrderRequest } from './requests.ts';
import {
  load,
  printTable,
  rssMb,
  startNpmStart,
  startGatewayAlone,
  startProcess,
  stopProcess,
  waitForHttp,
  writeResults,
} from './support.ts';
import { aloneTurn, crudTurn, embeddedTurn, median, turns } from './turns.ts';
import type { Turn, TurnFigures } from './turns.ts';
import type { Row } from './support.ts';

const duration = Number(process.env.BENCH_DURATION_S ?? 10);
const totalOrders = Number(process.env.BENCH_ORDERS ?? 100_000);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 32);
const root = path.resolve(import.meta.dirname, '..');

const createOrder = createOrderRequest();
const keyedCreateOrder = createOrderRequest(undefined, { keyed: true });

const changePct = (before: number, after: number) => Math.round(((after - before) / before) * 1000) / 10;
const sharePct = (part: number, whole: number) => Math.round((part / whole) * 1000) / 10;

async function main() {
  const rows: Row[] = [];
  const helloPort = '18081';
  const hello = startProcess([path.join(root, 'bench/hello.ts')], { PORT: helloPort });
  await waitForHttp(`http://127.0.0.1:${helloPort}/`);
  rows.push(
    await load('node:http hello-world (ceiling)', { url: `http://127.0.0.1:${helloPort}/`, connections, duration }),
  );
  await stopProcess(hello);

  // The HTTP tier alone: the same gateway with a bus handler that answers at once and stores nothing.
  const alonePort = '18082';
  const alone = startGatewayAlone(alonePort);
  let gatewayAlone: Row;
  try {
    await waitForHttp(`http://127.0.0.1:${alonePort}/healthz`);
    gatewayAlone = await load('create-order, gateway alone (nothing stored)', {
      url: `http://127.0.0.1:${alonePort}`,
      connections,
      duration,
      requests: [createOrder],
    });
    rows.push(gatewayAlone);
  } finally {
    await stopProcess(alone);
  }

  const dataDir = mkdtempSync(path.join(tmpdir(), 'parcel-bench-'));
  const port = '18080';
  const url = `http://127.0.0.1:${port}`;
  const sandbox = startProcess([path.join(root, 'services/carrier-sandbox/src/main.ts')], {
    PORT: '18089',
    HOST: '127.0.0.1',
    PARCEL_CARRIER_CALLBACK_URL: url,
  });
  // Exactly what `npm start` runs (scripts/start.sh execs node, so the pid is the server's).
  const server = startNpmStart(dataDir, { PORT: port, PARCEL_LMX_URL: 'http://127.0.0.1:18089' });
  try {
    await waitForHttp(`${url}/healthz`);
    await waitForHttp('http://127.0.0.1:18089/healthz');

    const { token, numbers: tracking } = await tokenAndParcels(url);
    for (const n of [1, 100, 1000]) {
      const lookups = a1Lookups(url, token, tracking.slice(0, n), {
        connections: n === 1000 ? 4 : connections,
        duration,
      });
      rows.push(await load(`A1 status lookup, ${n} numbers`, lookups));
    }
    const a1Serial = await load(
      'A1 1 000 numbers, one client',
      a1Lookups(url, token, tracking, { connections: 1, duration }),
    );
    rows.push(a1Serial);
    const create = await load('create-order (B1)', { url, connections, duration, requests: [createOrder] });
    rows.push(create);

    const already = create.requests + 1000;
    const remaining = Math.max(0, totalOrders - already);
    if (remaining > 0) {
      rows.push(
        await load(`create-order up to ${totalOrders} orders`, {
          url,
          connections,
          amount: remaining,
          requests: [createOrder],
        }),
      );
    }
    const rss = rssMb(server.pid!);
    // The same process 15 s later, with the burst's carrier registrations still being worked off
    // (the embedded stack registered roughly 300 orders/s with the carrier sandbox, far fewer than
    // it creates): whether the resident size keeps growing once the requests stop.
    await new Promise((resolve) => setTimeout(resolve, 15_000));
    const rssSettled = rssMb(server.pid!);
    // The embedded server stops first: its carrier-registration backlog must not weigh on the turns.
    await stopProcess(server);
    const ceiling = rows[0]!.rps;
    const baselineRef = process.env.BENCH_BASELINE_REF;
    const baseline = baselineRef ? exportCommit(root, baselineRef) : undefined;
    const plain = 'create-order, this tree';
    const keyed = 'create-order with an Idempotency-Key, this tree';
    const before = baseline ? `create-order, ${baseline.commit}` : '';
    const [crudFull, crudNormal] = [crudTurn('full', createOrder), crudTurn('normal', createOrder)];
    const alone = aloneTurn(createOrder);
    let measured: Awaited<ReturnType<typeof turns>>;
    try {
      measured = await turns(
        [
          ...(baseline ? [embeddedTurn(before, baseline.dir, createOrder)] : []),
          embeddedTurn(plain, root, createOrder),
          embeddedTurn(keyed, root, keyedCreateOrder),
          crudNormal,
          crudFull,
          alone,
        ],
        'http://127.0.0.1:18089',
        { connections, duration },
      );
    } finally {
      baseline?.remove();
    }
    rows.push(...measured.rows);
    const rpsOf = (name: string) => measured.medians.get(name)!.rps;
    const cpuOf = (name: string) => measured.medians.get(name)!.cpuMsPerRequest;
    const sustainedOf = (name: string) => measured.medians.get(name)!.sustainedRps;
    const drainedCpuOf = (name: string) => measured.medians.get(name)!.cpuMsPerRequestDrained;
    const loopOf = (name: string) => measured.medians.get(name)!.loop;
    const threadsOf = (name: string) =>
      Object.entries(measured.medians.get(name)!.threadMsPerRequest)
        .map(([thread, ms]) => `${thread} ${ms} ms`)
        .join(', ');
    /**
     * `part`'s figure set against `other`'s round by round (both were driven in the same round, one
     * after the other) by `compare` (sharePct or changePct): the median of those and their range.
     * On a shared machine this is steadier than comparing the two medians, which may come from
     * different rounds.
     */
    const paired = (
      part: string,
      other: string,
      of: (f: TurnFigures) => number,
      compare: (part: number, other: number) => number,
    ) => {
      const others = measured.rounds.get(other)!;
      const values = measured.rounds.get(part)!.map((f, i) => compare(of(f), of(others[i]!)));
      return { median: median(values), min: Math.min(...values), max: Math.max(...values) };
    };
    const pairedPct = (part: string, whole: string, of: (f: TurnFigures) => number) =>
      paired(part, whole, of, sharePct);
    /** `after`'s change against `before`, in %, round by round. */
    const pairedChangePct = (after: string, before: string, of: (f: TurnFigures) => number) =>
      paired(after, before, of, (a, b) => changePct(b, a));
    const signed = (pct: number) => (pct > 0 ? `+${pct}` : `${pct}`);
    const pairedText = (p: { median: number; min: number; max: number }) => `${p.median}% (${p.min} to ${p.max})`;
    const pairedChangeText = (p: { median: number; min: number; max: number }) =>
      `${signed(p.median)}% (${signed(p.min)} to ${signed(p.max)})`;
    /** This tree's create-order against a CRUD baseline: its throughput, and its CPU per request, in % of the baseline's. */
    const againstCrud = (crud: Turn) => ({
      rpsPct: sharePct(rpsOf(plain), rpsOf(crud.name)),
      rpsPctByRound: pairedPct(plain, crud.name, (f) => f.rps),
      cpuPerRequestPct: sharePct(cpuOf(plain), cpuOf(crud.name)),
      // With the work behind the answers done too (the baseline leaves none).
      sustainedRpsPct: sharePct(sustainedOf(plain), sustainedOf(crud.name)),
      cpuPerRequestDrainedPct: sharePct(drainedCpuOf(plain), drainedCpuOf(crud.name)),
    });
    printTable(rows);
    const summary = {
      ceilingRps: ceiling,
      createOrderRps: create.rps,
      createOrderShareOfCeiling: Math.round((create.rps / ceiling) * 1000) / 10,
      turns: Object.fromEntries(measured.medians),
      idempotencyKey: {
        rpsChangePct: changePct(rpsOf(plain), rpsOf(keyed)),
        cpuPerRequestChangePct: changePct(cpuOf(plain), cpuOf(keyed)),
      },
      embeddedShareOfCrud: { normal: againstCrud(crudNormal), full: againstCrud(crudFull) },
      gatewayAloneShareOfCrud: {
        rpsPct: sharePct(rpsOf(alone.name), rpsOf(crudNormal.name)),
        cpuPerRequestPct: sharePct(cpuOf(alone.name), cpuOf(crudNormal.name)),
      },
      ...(baseline
        ? {
            againstBaseline: {
              ref: baselineRef,
              commit: baseline.commit,
              rpsChangePct: changePct(rpsOf(before), rpsOf(plain)),
              cpuPerRequestChangePct: changePct(cpuOf(before), cpuOf(plain)),
              // This tree's change against the commit, round by round.
              rpsChangePctByRound: pairedChangePct(plain, before, (f) => f.rps),
              cpuPerRequestChangePctByRound: pairedChangePct(plain, before, (f) => f.cpuMsPerRequest),
              cpuPerRequestDrainedChangePctByRound: pairedChangePct(plain, before, (f) => f.cpuMsPerRequestDrained),
            },
          }
        : {}),
      gatewayAloneShareOfCeiling: Math.round((gatewayAlone.rps / ceiling) * 1000) / 10,
      a1ThousandP50Ms: a1Serial.p50,
      rssAfterOrdersMb: rss,
      rssSettledMb: rssSettled,
      ordersCreated: Math.max(totalOrders, already),
    };
    console.log(
      `\ncreate-order: ${summary.createOrderShareOfCeiling}% of the ceiling (target >= 25%; the gateway alone, storing nothing: ${summary.gatewayAloneShareOfCeiling}%); ` +
        `A1 1 000 numbers p50 ${summary.a1ThousandP50Ms} ms (target < 30 ms); RSS after ${summary.ordersCreated} orders ${rss} MB, 15 s later ${rssSettled} MB (target < 300 MB); ` +
        `create-order in turns, medians: ${rpsOf(plain)} req/s and ${cpuOf(plain)} ms of CPU per order; with an Idempotency-Key ` +
        `${rpsOf(keyed)} req/s (${summary.idempotencyKey.rpsChangePct}%) and ${cpuOf(keyed)} ms (${summary.idempotencyKey.cpuPerRequestChangePct}%); ` +
        `the CRUD baseline, synchronous NORMAL / FULL: ${rpsOf(crudNormal.name)} / ${rpsOf(crudFull.name)} req/s and ${cpuOf(crudNormal.name)} / ${cpuOf(crudFull.name)} ms, ` +
        `so this tree's create-order has ${summary.embeddedShareOfCrud.normal.rpsPct}% / ${summary.embeddedShareOfCrud.full.rpsPct}% of its throughput ` +
        `(round by round: ${pairedText(summary.embeddedShareOfCrud.normal.rpsPctByRound)} / ${pairedText(summary.embeddedShareOfCrud.full.rpsPctByRound)}) ` +
        `for ${summary.embeddedShareOfCrud.normal.cpuPerRequestPct}% / ${summary.embeddedShareOfCrud.full.cpuPerRequestPct}% of its CPU per request; ` +
        `with its subscriptions' drain (${measured.medians.get(plain)!.drainS} s after ${duration} s of load): ${sustainedOf(plain)} orders/s done in all and ${drainedCpuOf(plain)} ms of CPU per order, ` +
        `${summary.embeddedShareOfCrud.normal.sustainedRpsPct}% of the NORMAL baseline's throughput for ${summary.embeddedShareOfCrud.normal.cpuPerRequestDrainedPct}% of its CPU per request; ` +
        `the gateway alone, storing nothing, ${rpsOf(alone.name)} req/s and ${cpuOf(alone.name)} ms: ${summary.gatewayAloneShareOfCrud.rpsPct}% of the NORMAL baseline's throughput ` +
        `for ${summary.gatewayAloneShareOfCrud.cpuPerRequestPct}% of its CPU per request; ` +
        `CPU per order by thread, this tree: ${threadsOf(plain)}; the CRUD baseline (NORMAL): ${threadsOf(crudNormal.name)}` +
        (loopOf(plain)
          ? `; this tree's main event loop busy ${loopOf(plain)!.busyMsPerRequest} ms per order, ${Math.round(loopOf(plain)!.utilisation * 100)}% of the load's time`
          : '') +
        (baseline
          ? `; ${baseline.commit} ${rpsOf(before)} req/s and ${cpuOf(before)} ms (this tree against it, medians: req/s ${signed(summary.againstBaseline!.rpsChangePct)}%, CPU per order ${signed(summary.againstBaseline!.cpuPerRequestChangePct)}%; ` +
            `round by round: req/s ${pairedChangeText(summary.againstBaseline!.rpsChangePctByRound)}, CPU per order ${pairedChangeText(summary.againstBaseline!.cpuPerRequestChangePctByRound)}, ` +
            `with the drain ${pairedChangeText(summary.againstBaseline!.cpuPerRequestDrainedChangePctByRound)})`
          : ''),
    );
    writeResults('foundation', { connections, duration, rows, summary });
  } finally {
    await stopProcess(server);
    await stopProcess(sandbox);
    rmSync(dataDir, { recursive: true, force: true });
  }
}

await main();
