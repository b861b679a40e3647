/**
 * Failover: how long create-order goes without a success when a process of the distributed stack
 * dies. The stack of @parcel-logistics/stack as `npm run services` starts it (without its webhook
 * instances), on the Kafka, PostgreSQL and mongo-java-server of infra/up.sh; BENCH_CLIENTS clients
 * (default 16) send create-orders one after another, round robin over both gateways. After
 * BENCH_SETTLE_S seconds (default 5) `kill -9` of the first order process, BENCH_SETTLE_S later of
 * the tracking process, then BENCH_SETTLE_S more. Per kill: the longest time without a successful
 * answer, from the kill (bar < 3 s), and the answers that were failures. Then every acknowledged
 * order is looked for in the event store: each must be there once, and no order answered as
 * failed may be. Rounds: BENCH_ROUNDS (default 3); the table gives each and the median.
 * Run: `node bench/failover.bench.ts` (after `eval "$(bash infra/up.sh)"`).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { requireInfra, runStack } from '@parcel-logistics/stack';
import type { Stack } from '@parcel-logistics/stack';
import { orderJson, referenceOf, signed } from './orders.ts';
import { printColumns, referenceClaims, round } from './support.ts';

const clients = Number(process.env.BENCH_CLIENTS ?? 16);
const settleMs = Number(process.env.BENCH_SETTLE_S ?? 5) * 1000;
const rounds = Number(process.env.BENCH_ROUNDS ?? 3);
const BAR_S = 3;
const root = path.resolve(import.meta.dirname, '..');
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

interface Answer {
  ref: string;
  ok: boolean;
  /** When the answer arrived, ms since the epoch. */
  at: number;
}

/** The clients: each sends a create-order, waits for its answer, and sends the next. */
function startLoad(stack: Stack) {
  const answers: Answer[] = [];
  let running = true;
  const workers = Array.from({ length: clients }, async (_, w) => {
    for (let n = 0; running; n++) {
      const gateways = stack.gateways;
      const body = orderJson(`F${w}`);
      const ref = referenceOf(body);
      try {
        const reply = await fetch(`${gateways[(w + n) % gateways.length]}/v1/openapi/order/create-order`, {
          method: 'POST',
          headers: signed(),
          body,
          signal: AbortSignal.timeout(30_000),
        });
        const answer = (await reply.json()) as { code?: number };
        answers.push({ ref, ok: reply.status === 200 && answer.code === 0, at: Date.now() });
      } catch {
        answers.push({ ref, ok: false, at: Date.now() });
        await sleep(50);
      }
    }
  });
  return {
    answers,
    async stop() {
      running = false;
      await Promise.all(workers);
    },
  };
}

/** The longest time without a successful answer, from `from` to `to`. */
function longestGapMs(answers: readonly Answer[], from: number, to: number): number {
  const times = [from, ...answers.filter((a) => a.ok && a.at > from && a.at <= to).map((a) => a.at), to].sort(
    (a, b) => a - b,
  );
  let longest = 0;
  for (let i = 1; i < times.length; i++) longest = Math.max(longest, times[i]! - times[i - 1]!);
  return longest;
}

interface RoundResult {
  orderGapS: number;
  trackingGapS: number;
  acknowledged: number;
  failed: number;
  /** Acknowledged but not stored once, plus failed but stored. */
  wrong: number;
}

async function round1(): Promise<RoundResult> {
  const stack = runStack({ counts: { webhook: 0 } });
  await stack.startAll();
  try {
    const load = startLoad(stack);
    await sleep(settleMs);
    const orderKilled = Date.now();
    await stack.kill(stack.of('order')[0]!);
    await sleep(settleMs);
    const trackingKilled = Date.now();
    await stack.kill(stack.of('tracking')[0]!);
    await sleep(settleMs);
    const end = Date.now();
    await load.stop();
    const { answers } = load;
    const claims = await referenceClaims(
      requireInfra().pg,
      stack.stores.pgSchema,
      answers.map((a) => a.ref),
    );
    const wrong = answers.filter((a) => (a.ok ? claims.get(a.ref) !== 1 : (claims.get(a.ref) ?? 0) !== 0)).length;
    return {
      orderGapS: round(longestGapMs(answers, orderKilled, trackingKilled) / 1000, 2),
      trackingGapS: round(longestGapMs(answers, trackingKilled, end) / 1000, 2),
      acknowledged: answers.filter((a) => a.ok).length,
      failed: answers.filter((a) => !a.ok).length,
      wrong,
    };
  } finally {
    await stack.stop();
  }
}

const results: RoundResult[] = [];
for (let i = 0; i < rounds; i++) results.push(await round1());
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
printColumns(
  [
    'round',
    'no success after kill -9 order (s)',
    'after kill -9 tracking (s)',
    'acknowledged',
    'failed',
    'lost or doubled',
  ],
  [
    ...results.map((r, i) => [
      String(i + 1),
      String(r.orderGapS),
      String(r.trackingGapS),
      String(r.acknowledged),
      String(r.failed),
      String(r.wrong),
    ]),
    [
      'median',
      String(median(results.map((r) => r.orderGapS))),
      String(median(results.map((r) => r.trackingGapS))),
      '',
      '',
      '',
    ],
  ],
);
const worst = Math.max(...results.flatMap((r) => [r.orderGapS, r.trackingGapS]));
console.log(
  `longest time without a successful create-order: ${worst} s (bar < ${BAR_S} s: ${worst < BAR_S ? 'met' : 'MISSED'})`,
);
mkdirSync(path.join(root, 'bench/results'), { recursive: true });
writeFileSync(
  path.join(root, 'bench/results/failover.json'),
  JSON.stringify({ at: new Date().toISOString(), clients, settleMs, barS: BAR_S, rounds: results }, null, 2) + '\n',
);
