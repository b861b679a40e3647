/**
 * Distributed benchmark, in one run with the embedded stack for comparison:
 * create-order at full speed on each wiring (and the throughput ratio), create-order at a fixed
 * rate on the distributed wiring (bar p99 < 100 ms at 300 orders/s, aim < 60) and what an order costs
 * there, and A1 lookups of 1 000 numbers on each.
 * The distributed wiring: the stack of @parcel-logistics/stack as `npm run services` starts it (two
 * gateways, two order, one tracking, one label process, two webhook instances and the LMX sandbox;
 * BENCH_WEBHOOK_INSTANCES=0 leaves the webhook instances out) as a run of its own,
 * on the Kafka, PostgreSQL and mongo-java-server of infra/up.sh. Each wiring gets the
 * same unmeasured warm-up of create-orders first (BENCH_WARMUP_S, default 3 s). Each measured run
 * starts once the subscriptions (carrier registration, projections, the downstream publisher) have
 * caught up with the orders before it, so it carries its own load and not the backlog of the run
 * before. The `cpu %` column is the whole machine's, load generator included.
 * Cost per order: before it, unmeasured steps of 10 s at the fixed rate until the JIT compilers of
 * both JVMs (Kafka, mongo-java-server) take at most 0.05 ms of CPU per order (at most
 * BENCH_JIT_WARMUP_MAX_S seconds, default 120): a JVM compiles its hot code during its first minutes
 * of load, a cost that a long-running broker paid long ago and that would otherwise weigh on the
 * first runs after infra/up.sh and not on the later ones. Then, measured:
 * BENCH_FIXED_RATE orders/s (default 300) for BENCH_FIXED_S seconds (default 30),
 * sent open loop with arrivals evenly spaced (bench/openLoop.ts: independent clients, not one burst
 * per second), then the wait until every subscription has caught up (the drain, timed from the last
 * answer); each process's CPU time over both (bench/stackCpu.ts: the Node services, both JVMs,
 * PostgreSQL; not the load generator) per order answered, then the same processes' CPU per second
 * over 10 s with no load. Beside that sum, the whole machine's busy time per order (/proc/stat, the
 * hypervisor's steal left out) less its idle rate and the load generator's own CPU: if the two disagree, something was not counted. Throughput varies with whatever else the machine runs; CPU per order much less.
 * The embedded server's CPU per order (at full speed, its drain included) is read in the same run,
 * for comparison, and so is the HTTP tier alone (bench/gatewayAlone.ts: the gateway with a bus
 * handler that stores nothing) at full speed and at the fixed rate: what one process's request
 * costs when it arrives alone, against its cost when requests come back to back.
 * BENCH_COUNT_MESSAGES=1 preloads bench/messageCounter.ts into every process of the stack and
 * prints, per process, the messages it sent per order at the fixed rate (Kafka requests by API,
 * PostgreSQL round trips, MongoDB messages). PostgreSQL's time is also split by the connection it
 * served (bench/postgresClients.ts: the stack process and the application name). The bus alone on the same broker: packages/bus-kafka/bench/requestReply.ts.
 * Run: `npm run bench` (BENCH_WEBHOOK_INSTANCES, BENCH_FIXED_RATE, BENCH_FIXED_S, BENCH_WARMUP_S,
 * BENCH_COUNT_MESSAGES, BENCH_JIT_WARMUP_MAX_S).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type autocannon from 'autocannon';
import { requireInfra, runStack, specOf } from '@parcel-logistics/stack';
import { messageCounts, printMessages } from './messages.ts';
import { cpuBetween, machineBusyMs, machineCpuMs, processCpuMs, readCpu } from './processCpu.ts';
import { openLoop } from './openLoop.ts';
import { postgresByClient, postgresConnections, printPostgresByClient } from './postgresClients.ts';
import { costs, jvmJitCpuMs, POSTGRES, printCosts, stackProcesses, warnIncomplete } from './stackCpu.ts';
import type { Counted } from './processCpu.ts';
import type { OpenLoopOptions } from './openLoop.ts';
import { orderJson, referenceOf, signed, tokenAndParcels } from './orders.ts';
import { a1Lookups, CREATE_ORDER_PATH, createOrderRequest } from './requests.ts';
import {
  load,
  postgresCheckpointLag,
  printTable,
  referenceClaims,
  round,
  sqliteCheckpointLag,
  startGatewayAlone,
  startNpmStart,
  stopProcess,
  subscriptionsCaughtUp,
  waitForHttp,
  writeResults,
} from './support.ts';
import type { CheckpointLag, Row } from './support.ts';

const duration = Number(process.env.BENCH_DURATION_S ?? 10);
/** Unmeasured create-orders before each wiring's measured ones (JIT, connections, pools), seconds. */
const warmUp = Number(process.env.BENCH_WARMUP_S ?? 3);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 32);
const fixedRate = Number(process.env.BENCH_FIXED_RATE ?? 300);
const fixedS = Number(process.env.BENCH_FIXED_S ?? 30);
/** How many webhook instances run beside the order path (default: as many as `npm run services` starts). */
const webhookInstances = process.env.BENCH_WEBHOOK_INSTANCES;
/** At most this long at the fixed rate, unmeasured, for the JVMs' JIT compilers to go quiet, seconds. */
const jitWarmUpMaxS = Number(process.env.BENCH_JIT_WARMUP_MAX_S ?? 120);
const JIT_STEP_S = 10;
/** The JIT compilers are quiet once they take at most this much CPU per order of a step, ms. */
const JIT_QUIET_MS_PER_ORDER = 0.05;
/** The stack with no load after the drain, seconds. */
const IDLE_S = 10;
const countMessages = process.env.BENCH_COUNT_MESSAGES === '1';
const root = path.resolve(import.meta.dirname, '..');

const createOrder = createOrderRequest('D');

async function a1Thousand(url: string): Promise<autocannon.Options> {
  const { token, numbers } = await tokenAndParcels(url, 'D');
  return a1Lookups(url, token, numbers, { connections: 1, duration });
}

/** How long a measured run waits for the work left over from the orders before it. */
const SETTLE_TIMEOUT_S = 120;
/**
 * How long the drain after the fixed rate may take: the subscriptions may work off fewer orders
 * per second than come in (the drain after 30 s at 300/s took 24 to 80 s on the 2-core machine);
 * an order not worked off in time would be missing from the cost per order.
 */
const DRAIN_TIMEOUT_S = 600;

/** Before each measured run: the work left over from the orders before it is done first. Resolves with the seconds it took, undefined when it timed out. */
async function settle(
  wiring: string,
  lag: () => Promise<CheckpointLag>,
  timeoutS = SETTLE_TIMEOUT_S,
): Promise<number | undefined> {
  const seconds = await subscriptionsCaughtUp(lag, timeoutS * 1000);
  console.log(
    seconds === undefined
      ? `${wiring}: subscriptions still behind after ${timeoutS} s; measuring anyway`
      : `${wiring}: subscriptions caught up in ${seconds} s`,
  );
  return seconds;
}

/**
 * The HTTP tier alone (bench/gatewayAlone.ts), in a process of its own: its CPU per request at full
 * speed (BENCH_CONNECTIONS back to back) and at the fixed rate, evenly spaced, each after a warm-up.
 */
async function httpTierAlone(): Promise<{ fullSpeedMsPerOrder: number; fixedRateMsPerOrder: number }> {
  const port = '18182';
  const url = `http://127.0.0.1:${port}`;
  const alone = startGatewayAlone(port);
  try {
    await waitForHttp(`${url}/healthz`);
    await load('warm-up', { url, connections, duration: warmUp, requests: [createOrder] });
    let before = processCpuMs(alone.pid!);
    const full = await load('HTTP tier alone', { url, connections, duration, requests: [createOrder] });
    const fullSpeedMsPerOrder = round((processCpuMs(alone.pid!) - before) / Math.max(1, full.requests), 3);
    const paced = {
      url,
      path: CREATE_ORDER_PATH,
      ratePerS: fixedRate,
      next: () => ({ headers: signed(), body: orderJson('D') }),
    };
    await openLoop('warm-up', { ...paced, durationS: warmUp });
    before = processCpuMs(alone.pid!);
    const fixed = await openLoop('HTTP tier alone, fixed rate', { ...paced, durationS: duration });
    const fixedRateMsPerOrder = round((processCpuMs(alone.pid!) - before) / Math.max(1, fixed.requests), 3);
    return { fullSpeedMsPerOrder, fixedRateMsPerOrder };
  } finally {
    await stopProcess(alone);
  }
}

/**
 * Unmeasured steps at the fixed rate until the JVMs' JIT compilers are quiet, or jitWarmUpMaxS has
 * passed. Resolves with the seconds it took and the compilers' CPU per order in the last step.
 */
async function warmJvms(
  paced: Omit<OpenLoopOptions, 'durationS'>,
  stack: Counted[],
): Promise<{ seconds: number; jitMsPerOrder: number | null }> {
  let seconds = 0;
  let jitMsPerOrder: number | undefined;
  while (seconds < jitWarmUpMaxS && (jitMsPerOrder === undefined || jitMsPerOrder > JIT_QUIET_MS_PER_ORDER)) {
    const before = jvmJitCpuMs(stack);
    const step = await openLoop('JVM warm-up', { ...paced, durationS: JIT_STEP_S });
    seconds += JIT_STEP_S;
    jitMsPerOrder = round((jvmJitCpuMs(stack) - before) / Math.max(1, step.requests), 3);
  }
  console.log(
    jitMsPerOrder === undefined
      ? 'distributed: no warm-up of the JVMs (BENCH_JIT_WARMUP_MAX_S)'
      : `distributed: ${seconds} s at ${paced.ratePerS}/s to warm the JVMs up; their JIT compilers took ${jitMsPerOrder} ms of CPU per order in the last ${JIT_STEP_S} s`,
  );
  return { seconds, jitMsPerOrder: jitMsPerOrder ?? null };
}

/**
 * The fixed rate's orders held against the event store, by their references: each one acknowledged
 * must be stored exactly once, and one not acknowledged (refused, or its request failed) may have
 * been stored all the same, which its client cannot know.
 */
async function storedOnce(
  pgUrl: string,
  schema: string,
  bodies: { accepted: string[]; notAccepted: string[] },
): Promise<{
  acknowledged: number;
  acknowledgedNotStoredOnce: number;
  notAcknowledged: number;
  notAcknowledgedButStored: number;
}> {
  const [acknowledged, notAcknowledged] = [bodies.accepted.map(referenceOf), bodies.notAccepted.map(referenceOf)];
  const claims = await referenceClaims(pgUrl, schema, [...acknowledged, ...notAcknowledged]);
  return {
    acknowledged: acknowledged.length,
    acknowledgedNotStoredOnce: acknowledged.filter((ref) => claims.get(ref) !== 1).length,
    notAcknowledged: notAcknowledged.length,
    notAcknowledgedButStored: notAcknowledged.filter((ref) => (claims.get(ref) ?? 0) > 0).length,
  };
}

async function main() {
  const rows: Row[] = [];
  const tier = await httpTierAlone();
  const dataDir = mkdtempSync(path.join(tmpdir(), 'parcel-bench-'));
  const embedded = startNpmStart(dataDir, { PORT: '18180', PARCEL_SANDBOX_PORT: '18189' });
  const embeddedUrl = 'http://127.0.0.1:18180';
  let embeddedCreate: Row;
  let embeddedA1: Row;
  let embeddedCpuMsPerOrder: number;
  try {
    await waitForHttp(`${embeddedUrl}/healthz`);
    const lag = sqliteCheckpointLag(path.join(dataDir, 'events.db'));
    await load('warm-up', { url: embeddedUrl, connections, duration: warmUp, requests: [createOrder] });
    await settle('embedded', lag);
    // scripts/start.sh execs node, and the embedded stack runs its LMX sandbox in-process: the child is all of it.
    const cpuBefore = processCpuMs(embedded.pid!);
    embeddedCreate = await load('embedded: create-order', {
      url: embeddedUrl,
      connections,
      duration,
      requests: [createOrder],
    });
    await settle('embedded', lag);
    embeddedCpuMsPerOrder = round((processCpuMs(embedded.pid!) - cpuBefore) / Math.max(1, embeddedCreate.requests), 3);
    const a1 = await a1Thousand(embeddedUrl);
    await settle('embedded', lag);
    embeddedA1 = await load('embedded: A1 1 000 numbers', a1);
    rows.push(embeddedCreate, embeddedA1);
  } finally {
    await stopProcess(embedded);
    rmSync(dataDir, { recursive: true, force: true });
  }

  const countDir = mkdtempSync(path.join(tmpdir(), 'parcel-bench-messages-'));
  const cluster = runStack(
    countMessages
      ? {
          env: {
            // The stack's own Node options, with the counter preloaded.
            NODE_OPTIONS: `${specOf('gateway').settings.NODE_OPTIONS ?? ''} --import ${path.join(root, 'bench/messageCounter.ts')}`,
            BENCH_COUNT_DIR: countDir,
          },
        }
      : {},
  );
  try {
    // As `npm run services` runs it, webhook instances included unless BENCH_WEBHOOK_INSTANCES says otherwise.
    await cluster.startAll(webhookInstances === undefined ? {} : { webhook: Number(webhookInstances) });
    const [gw] = cluster.gateways;
    const infra = requireInfra();
    const lag = postgresCheckpointLag(infra.pg, cluster.stores.pgSchema);
    const stack = stackProcesses(cluster, infra);
    await load('warm-up', { url: gw!, connections, duration: warmUp, requests: [createOrder] });
    await settle('distributed', lag);
    const distCreate = await load('distributed: create-order', {
      url: gw!,
      connections,
      duration,
      requests: [createOrder],
    });
    await settle('distributed', lag);
    const paced = {
      url: gw!,
      path: CREATE_ORDER_PATH,
      ratePerS: fixedRate,
      next: () => ({ headers: signed(), body: orderJson('D') }),
    };
    const jvmWarmUp = await warmJvms(paced, stack);
    await settle('distributed', lag);

    // The machine's busy time too, the load generator's own CPU taken out: what nothing escapes.
    const countsBefore = messageCounts(countDir);
    const start = readCpu(stack);
    const jitStart = jvmJitCpuMs(stack);
    const [machineStart, benchStart, loadStart] = [machineCpuMs(), process.cpuUsage(), performance.now()];
    // Open loop, arrivals evenly spaced, as independent clients arrive; all at the first gateway, the second unused.
    const fixed = await openLoop(`distributed: create-order at ${fixedRate}/s (evenly spaced)`, {
      ...paced,
      durationS: fixedS,
      // Interface B answers a refused order with 200 and a failure code; an answer that is not its JSON
      // (a proxy's error page) refuses it too.
      accepted: (status, text) => {
        if (status !== 200) return false;
        try {
          return (JSON.parse(text) as { code?: number }).code === 0;
        } catch {
          return false;
        }
      },
    });
    const drainS = await settle('distributed, after the last answer at the fixed rate', lag, DRAIN_TIMEOUT_S);
    const drained = readCpu(stack);
    const jitMsPerOrder = round((jvmJitCpuMs(stack) - jitStart) / Math.max(1, fixed.requests), 3);
    const pgConnections = await postgresConnections(infra.pg, stack);
    // The counters write every 250 ms.
    const countsAfter = countMessages
      ? await new Promise<ReturnType<typeof messageCounts>>((resolve) =>
          setTimeout(() => resolve(messageCounts(countDir)), 400),
        )
      : undefined;
    const [machineDrained, benchDrained, loadMs] = [
      machineCpuMs(),
      process.cpuUsage(benchStart),
      performance.now() - loadStart,
    ];
    await new Promise((resolve) => setTimeout(resolve, IDLE_S * 1000));
    const machineIdleMsPerS = (machineBusyMs() - machineDrained.busy) / IDLE_S;
    const loaded = warnIncomplete(cpuBetween(start, drained), 'the fixed rate');
    const idle = warnIncomplete(cpuBetween(drained, readCpu(stack)), 'the idle time');
    const perProcess = costs(loaded, fixed.requests, idle, IDLE_S);
    const pgServed = postgresByClient(pgConnections, POSTGRES, start, drained, fixed.requests);
    const orders = await storedOnce(infra.pg, cluster.stores.pgSchema, fixed.bodies);
    const whole = perProcess.at(-1)!;
    const benchMs = (benchDrained.user + benchDrained.system) / 1000;
    // Time the hypervisor gave this machine's cores to other guests: not counted as busy (processCpu.ts).
    const stealMsPerS = round((machineDrained.steal - machineStart.steal) / (loadMs / 1000), 0);
    const machineMsPerOrder = round(
      (machineDrained.busy - machineStart.busy - benchMs - machineIdleMsPerS * (loadMs / 1000)) / fixed.requests,
      2,
    );

    const a1 = await a1Thousand(gw!);
    await settle('distributed', lag);
    const distA1 = await load('distributed: A1 1 000 numbers', a1);
    rows.push(distCreate, fixed, distA1);
    printTable(rows);
    console.log(
      `\nCPU per order at ${fixedRate} orders/s for ${fixedS} s, the drain included (${fixed.requests} orders), and with no load (${IDLE_S} s); ` +
        'PostgreSQL is every postgres process of the machine, taken to serve only this bench meanwhile:',
    );
    printCosts(perProcess);
    let messages: Record<string, Record<string, number>> | undefined;
    if (countsAfter) {
      console.log(`\nMessages sent per order at ${fixedRate} orders/s, the drain included (bench/messageCounter.ts):`);
      const names = new Map(
        stack.flatMap((p) => p.find().map((pid) => [pid, p.name] as const)).filter(([pid]) => countsAfter.has(pid)),
      );
      messages = printMessages(countsBefore, countsAfter, fixed.requests, names);
    }
    console.log(
      `\nPostgreSQL's CPU per order at ${fixedRate} orders/s by the connection it served (bench/postgresClients.ts):`,
    );
    printPostgresByClient(pgServed);
    console.log(
      `\nOrders at the fixed rate, held against the event store: ${orders.acknowledged} acknowledged, ` +
        `${orders.acknowledgedNotStoredOnce} of them not stored exactly once; ${orders.notAcknowledged} not acknowledged, ` +
        `${orders.notAcknowledgedButStored} of them stored all the same`,
    );
    console.log(
      `\nThe HTTP tier alone (bench/gatewayAlone.ts: authentication, validation, spans, a bus handler that stores nothing): ` +
        `${tier.fullSpeedMsPerOrder} ms of CPU per order at full speed, ${tier.fixedRateMsPerOrder} ms at ${fixedRate}/s evenly spaced`,
    );
    console.log(
      `the whole machine: ${machineMsPerOrder} ms of CPU per order (its busy time over the load and the drain, less ` +
        `its idle rate of ${round(machineIdleMsPerS, 1)} ms/s and the load generator's ${round(benchMs, 0)} ms), ` +
        `against ${whole.cpuMsPerOrder} ms summed over the processes above (the JVMs' JIT compilers ${jitMsPerOrder} of it, after ${jvmWarmUp.seconds} s of warm-up at the fixed rate); the latest send left ${fixed.maxLateMs} ms after its slot; ` +
        `the hypervisor gave ${stealMsPerS} ms/s of its cores to other guests meanwhile (steal, left out)`,
    );
    const summary = {
      createOrderRatio: round((distCreate.rps / embeddedCreate.rps) * 100, 1),
      fixedRateP99Ms: fixed.p99,
      fixedRateRps: fixed.rps,
      fixedRate: {
        ordersPerS: fixedRate,
        seconds: fixedS,
        orders: fixed.requests,
        p50Ms: fixed.p50,
        p99Ms: fixed.p99,
        drainS: drainS ?? null,
        cpuMsPerOrder: whole.cpuMsPerOrder,
        machineCpuMsPerOrder: machineMsPerOrder,
        machineIdleCpuMsPerS: round(machineIdleMsPerS, 1),
        machineStealMsPerS: stealMsPerS,
        jvmJitCpuMsPerOrder: jitMsPerOrder,
        jvmWarmUp,
        storedOnce: orders,
        idleCpuMsPerS: whole.idleCpuMsPerS,
        processes: perProcess,
      },
      embeddedCpuMsPerOrder,
      postgresByClient: pgServed,
      httpTierAlone: tier,
      ...(messages ? { messagesPerOrder: messages } : {}),
      cpuPerOrderOfEmbeddedPct: round((whole.cpuMsPerOrder / embeddedCpuMsPerOrder) * 100, 1),
    };
    console.log(
      `\ndistributed/embedded create-order throughput: ${summary.createOrderRatio}% (bar >= 35%, aim >= 50%); ` +
        `at ${fixedRate} orders/s: p50 ${fixed.p50} ms, p99 ${fixed.p99} ms over ${fixed.rps} req/s (bar p99 < 100 ms at 300/s, aim < 60 ms), ` +
        `drained ${drainS ?? `not within ${DRAIN_TIMEOUT_S}`} s after the last answer (bar < 3 s); ${whole.cpuMsPerOrder} ms of CPU per order, drain included ` +
        `(bar <= 3 ms, aim <= 2 ms; the embedded stack, at full speed: ${embeddedCpuMsPerOrder} ms, so ${summary.cpuPerOrderOfEmbeddedPct}% of it); ` +
        `idle, the stack uses ${whole.idleCpuMsPerS} ms of CPU per second (bar <= 30, aim <= 15)`,
    );
    writeResults('distributed', { connections, duration, rows, summary });
  } finally {
    await cluster.stop();
    rmSync(countDir, { recursive: true, force: true });
  }
}

await main();
